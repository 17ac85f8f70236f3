// What the sandbox's OAuth providers (Google, Meta) answer the browser with: their consent pages, the
// redirect back to the client, and the constant-time comparison of the secrets they are handed.
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { mediaType } from '../http/operation-guard.ts';
import { pageHeaders } from '../http/security-headers.ts';
import { findUnstorableText } from '../http/storable-text.ts';
import { renderPage } from '../http/page.ts';

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A sandbox page; `formTarget` is the one other origin its form may post to (the consent's redirect). */
export function sandboxPage(status: number, title: string, body: string, formTarget?: string): Response {
  const headers = new Headers(pageHeaders);
  if (formTarget)
    headers.set(
      'Content-Security-Policy',
      headers
        .get('Content-Security-Policy')!
        .replace("form-action 'self'", `form-action 'self' ${new URL(formTarget).origin}`),
    );
  headers.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(renderPage({ title, body, sandbox: true }), { status, headers });
}

export function redirectTo(redirectUri: string, params: Record<string, string>): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return new Response(null, {
    status: 302,
    headers: { location: url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

function decodedSegments(pathname: string): string[] {
  return pathname.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

/**
 * Refuses, before a provider route runs, a path, query or form field holding text the database cannot store
 * (the account typed on a consent page is stored): the generated operations' validation does not see these
 * routes, so they run the same check here.
 */
export const storableProviderInput: MiddlewareHandler = async (c, next) => {
  const url = new URL(c.req.url);
  const form =
    mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded'
      ? [...new URLSearchParams(await c.req.text())]
      : [];
  if (findUnstorableText([decodedSegments(url.pathname), [...url.searchParams], form]).length) {
    return sandboxPage(
      400,
      'Error 400: invalid_request',
      '<p>The request holds a character that cannot be stored (U+0000 or an unpaired surrogate). Go back and correct it.</p>',
    );
  }
  await next();
};
