// The company an address belongs to, for stop_for_company: its registrable domain (acme.co.uk for
// jo@sales.acme.co.uk), or null for a free-mail address or one without a domain we can read.
import { getDomain } from 'tldts';
import { isFreeMailDomain } from './free-mail.ts';

export function companyDomain(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  const domain = getDomain(email.slice(at + 1).toLowerCase());
  if (!domain || isFreeMailDomain(domain)) return null;
  return domain;
}
