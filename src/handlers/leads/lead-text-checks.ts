// The checks of the lead text fields that have a format (phone, website, linkedin_url, timezone): each
// gives the value to store or a field error code and message.
import { isPlausibleDomain } from './lead-email.ts';

export type Check = (value: string) => { value: string } | { code: string; message: string };

export function checkPhone(value: string): ReturnType<Check> {
  const phone = value.replace(/\s+/g, ' ');
  const shape = /^\+?[\d ().-]+?(?: ?(?:x|ext\.?|extension|#) ?\d{1,6})?$/i;
  const digits = phone.replace(/(?: ?(?:x|ext\.?|extension|#) ?\d{1,6})$/i, '').replace(/\D/g, '').length;
  if (phone.length < 5 || phone.length > 32 || !shape.test(phone) || digits < 5) {
    return {
      code: 'phone_invalid',
      message: 'phone must be 5–32 characters of digits, spaces and + ( ) . - with an optional extension',
    };
  }
  return { value: phone };
}

function parseWebUrl(value: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if (url.username !== '' || url.password !== '' || !isPlausibleDomain(url.hostname)) return null;
  return url;
}

export function checkWebsite(value: string): ReturnType<Check> {
  const url = parseWebUrl(value);
  return url
    ? { value: url.href }
    : { code: 'website_invalid', message: 'website must be an http(s) URL or a domain name' };
}

export function checkLinkedinUrl(value: string): ReturnType<Check> {
  const url = parseWebUrl(value);
  if (!url || (url.hostname !== 'linkedin.com' && !url.hostname.endsWith('.linkedin.com'))) {
    return { code: 'linkedin_url_invalid', message: 'linkedin_url must be a URL on linkedin.com' };
  }
  url.protocol = 'https:';
  return { value: url.href };
}

const timeZones = new Map<string, string>();

export function checkTimezone(value: string): ReturnType<Check> {
  const invalid = {
    code: 'timezone_invalid',
    message: 'timezone must be an IANA time zone name such as Europe/Berlin or UTC',
  };
  const known = timeZones.get(value.toLowerCase());
  if (known) return { value: known };
  if (!/^(?:UTC|GMT|[a-z]+(?:\/[a-z0-9_+-]+)+)$/i.test(value)) return invalid;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    // Bounded: only names Intl accepts are remembered, a few hundred at most.
    timeZones.set(value.toLowerCase(), canonical);
    return { value: canonical };
  } catch {
    return invalid;
  }
}
