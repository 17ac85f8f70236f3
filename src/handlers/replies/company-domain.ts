// The company an address belongs to, for stop_for_company: its registrable domain (acme.co.uk for
// jo@sales.acme.co.uk), or null for a free-mail address or one without a domain we can read. tldts (the public
// suffix list) loads at the first reply that stops a company (src/load-once.ts).
import { loadOnce } from '../../load-once.ts';
import { isFreeMailDomain } from './free-mail.ts';

export type CompanyDomainOf = (email: string | null | undefined) => string | null;

/** The function that reads an address's company domain; the first call loads the public suffix list. */
export const companyDomainReader = loadOnce(async (): Promise<CompanyDomainOf> => {
  const { getDomain } = await import('tldts');
  return (email) => {
    if (!email) return null;
    const at = email.lastIndexOf('@');
    if (at < 1) return null;
    const domain = getDomain(email.slice(at + 1).toLowerCase());
    if (!domain || isFreeMailDomain(domain)) return null;
    return domain;
  };
});
