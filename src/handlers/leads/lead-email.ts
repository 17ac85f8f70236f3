// Email addresses as a lead stores them: one spelling (lower case, punycode domain) or a reason to refuse.
import { domainToASCII } from 'node:url';

export type EmailResult =
  | { ok: true; email: string }
  | { ok: false; code: 'email_missing' | 'email_invalid'; message: string };

/** Quoted local parts and address literals ("[1.2.3.4]") are refused: no lead list needs them. */
export function normalizeEmail(raw: string): EmailResult {
  const invalid = (message: string): EmailResult => ({ ok: false, code: 'email_invalid', message });
  // NFC leaves ASCII unchanged; most addresses are ASCII, so the ICU call is skipped for them.
  const trimmed = (NON_ASCII.test(raw) ? raw.normalize('NFC') : raw).trim();
  if (trimmed === '') return { ok: false, code: 'email_missing', message: 'email is required' };
  if (/\s/.test(trimmed)) return invalid('email contains a space');
  const at = trimmed.indexOf('@');
  if (at < 0 || trimmed.indexOf('@', at + 1) >= 0) return invalid('email must contain exactly one @');
  const local = trimmed.slice(0, at).toLowerCase();
  if (local === '') return invalid('email has nothing before the @');
  if (local.length > 64) return invalid('the part before the @ is longer than 64 characters');
  if (/[\x00-\x1f\x7f"(),:;<>[\\\]]/.test(local) || /^\.|\.$|\.\./.test(local))
    return invalid('the part before the @ holds a character or dot not allowed there');
  const domain = asciiDomain(trimmed.slice(at + 1).replace(/\.$/, ''));
  if (!isPlausibleDomain(domain)) return invalid('the domain after the @ is not a valid domain name');
  const email = `${local}@${domain}`;
  if (email.length > 254) return invalid('email is longer than 254 characters');
  return { ok: true, email };
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Letters, digits, dots and hyphens without punycode: domainToASCII would only lower-case these. */
const PLAIN_DOMAIN = /^[a-zA-Z0-9.-]+$/;

/**
 * The domain as domainToASCII gives it (IDNA to punycode, lower case), without its cost for the common
 * plain ASCII name. Names that end in a number (which it reads as IPv4) fail isPlausibleDomain either way.
 */
function asciiDomain(domain: string): string {
  return PLAIN_DOMAIN.test(domain) && !/xn--/i.test(domain) ? domain.toLowerCase() : domainToASCII(domain);
}

/** Host names with at least one dot, LDH labels and an alphabetic (or punycode) top-level label; IPs fail. */
export function isPlausibleDomain(domain: string): boolean {
  return domain.length <= 253 && PLAUSIBLE_DOMAIN.test(domain);
}
const PLAUSIBLE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
