// Redirects are followed by hand so every hop passes the same checks as the first: the URL rules,
// the address policy (at connect time), never https -> http, and RFC 9110's method rules.
import { OutboundError } from './outbound-error.ts';
import { checkUrl, redactUrl } from './url-check.ts';

export interface Hop {
  url: URL;
  method: string;
  headers: Headers;
  /** Kept as bytes or a string so a 307/308 can send it again. */
  body?: string | Uint8Array;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Headers describing a request body, dropped with the body (Fetch's request-body-header names). */
const bodyHeaders = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** Credentials meant for one origin only. */
const originBoundHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/** RFC 9110 15.4: 303 turns anything but HEAD into GET; 301/302 turn POST into GET (as browsers do). */
function methodAfter(status: number, method: string): string {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/**
 * The next hop for a response, or undefined when the response is final (not a redirect, or a
 * redirect without Location, which is then handed to the caller as it is).
 */
export function nextHop(hop: Hop, status: number, location: string | null): Hop | undefined {
  if (!redirectStatuses.has(status) || location === null) return undefined;
  const url = checkUrl(location, hop.url);
  if (hop.url.protocol === 'https:' && url.protocol === 'http:') {
    throw new OutboundError('redirect_to_insecure', 'an https URL redirected to plain http', { url: redactUrl(url) });
  }
  const headers = new Headers(hop.headers);
  const method = methodAfter(status, hop.method);
  let body = hop.body;
  if (method !== hop.method) {
    body = undefined;
    for (const name of bodyHeaders) headers.delete(name);
  }
  if (url.origin !== hop.url.origin) {
    for (const name of originBoundHeaders) headers.delete(name);
  }
  return { url, method, headers, body };
}
