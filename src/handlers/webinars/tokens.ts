// The signed tokens of the webinar pages, each under its own key derived from the server secret.
// A join token names one registrant (anyone holding the link joins as them, which is what the link is for;
// nobody can make one for another registrant). A registration form's CSRF token is double-submit: a random
// nonce in a cookie, and the same nonce with an HMAC over the webinar's public id in the form; a forged
// cross-site post has neither the cookie's value nor a way to sign one. The nonce is per browser, not per
// page view: a form opened again (a second tab) reuses the cookie it finds, so every open tab stays valid.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../../auth/derived-key.ts';
import { tagMatches } from '../../auth/signed-tag.ts';

const MAC_BYTES = 16;
const mac = (secret: Uint8Array, label: string, data: string) =>
  createHmac('sha256', derivedKey(secret, label)).update(data).digest().subarray(0, MAC_BYTES);

function matches(secret: Uint8Array, label: string, data: string, given: string): boolean {
  return tagMatches(given, mac(secret, label, data));
}

const JOIN = 'service-mcp webinar join link v1';
const ID = /^[a-z]+_[0-9a-z]{26}$/;

export function signJoin(secret: Uint8Array, target: { workspaceId: string; registrantId: string }): string {
  const payload = Buffer.from(`${target.workspaceId}.${target.registrantId}`).toString('base64url');
  return `${payload}.${mac(secret, JOIN, payload).toString('base64url')}`;
}

export function verifyJoin(
  secret: Uint8Array,
  token: string,
): { workspaceId: string; registrantId: string } | undefined {
  const [payload, given, extra] = token.split('.');
  if (!payload || !given || extra !== undefined || !matches(secret, JOIN, payload, given)) return undefined;
  const [workspaceId, registrantId, more] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  if (more !== undefined || !ID.test(workspaceId ?? '') || !ID.test(registrantId ?? '')) return undefined;
  return { workspaceId, registrantId };
}

const CSRF = 'service-mcp webinar registration form v1';
export const CSRF_COOKIE = 'webinar_csrf';

const NONCE = /^[A-Za-z0-9_-]{24}$/;

/**
 * The cookie's nonce and the form's token bound to it and to this webinar. The browser's existing nonce is
 * kept when it has one: replacing it would void the token of every other tab showing this form. Keeping a
 * value the browser sends is safe: the token is signed by the server, so a nonce alone opens nothing.
 */
export function issueCsrf(secret: Uint8Array, publicId: string, existing?: string): { nonce: string; token: string } {
  const nonce = existing && NONCE.test(existing) ? existing : randomBytes(18).toString('base64url');
  return { nonce, token: `${nonce}.${mac(secret, CSRF, `${publicId}.${nonce}`).toString('base64url')}` };
}

export function checkCsrf(
  secret: Uint8Array,
  publicId: string,
  cookieNonce: string | undefined,
  token: string | undefined,
): boolean {
  const [nonce, given, extra] = (token ?? '').split('.');
  if (!cookieNonce || !nonce || !given || extra !== undefined || nonce.length !== cookieNonce.length) return false;
  if (!timingSafeEqual(Buffer.from(nonce), Buffer.from(cookieNonce))) return false;
  return matches(secret, CSRF, `${publicId}.${nonce}`, given);
}

/** A cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
