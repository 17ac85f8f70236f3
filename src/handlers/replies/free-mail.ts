// Mailbox providers where one domain holds strangers: a reply from one of them says nothing about a
// colleague, so stop_for_company never widens to them.
const FREE_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'web.de',
  'mail.ru',
  'bk.ru',
  'list.ru',
  'inbox.ru',
  'qq.com',
  '163.com',
  '126.com',
  'sina.com',
  'naver.com',
  'daum.net',
  'zoho.com',
  'mail.com',
  'fastmail.com',
  'tutanota.com',
  'hey.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  't-online.de',
  'seznam.cz',
  'wp.pl',
  'o2.pl',
  'interia.pl',
  'rediffmail.com',
  'rambler.ru',
]);

/** Brands that register their free mail under many country domains (hotmail.co.uk, yahoo.fr, gmx.de, …). */
const FREE_MAIL_BRANDS = new Set(['hotmail', 'yahoo', 'ymail', 'gmx', 'yandex', 'outlook', 'live', 'aol']);

/** Whether a registrable domain (e.g. from tldts getDomain) is a free-mail provider's. */
export function isFreeMailDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  if (FREE_MAIL.has(d)) return true;
  return FREE_MAIL_BRANDS.has(d.slice(0, d.indexOf('.')));
}
