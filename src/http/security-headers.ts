// The security headers of every response the service serves to a browser: the admin panel and its assets,
// page.css, and the pages the service renders itself (OAuth callback, unsubscribe, webinar and blog pages,
// the sandbox consent pages). One module, so the panel, the sandbox and the public pages cannot drift apart.
// Not Hono's secure-headers middleware: these are chosen per response (respond.ts adds them to text/html
// responses only, and a handler may send its own CSP with a style hash, which the middleware would overwrite).

/** The admin panel's policy, and the default of every response that carries these headers. */
export const panelContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  // The panel builds its DOM with textContent only; this makes any HTML-string sink a violation.
  "require-trusted-types-for 'script'",
].join('; ');

export const securityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': panelContentSecurityPolicy,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/**
 * Pages the service renders itself (OAuth callback, unsubscribe, consent): no script at all, styles only from
 * this origin, forms posting back here only, never framed. A handler may send its own policy (a style hash).
 */
export const pageContentSecurityPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const pageHeaders: Readonly<Record<string, string>> = {
  ...securityHeaders,
  'Content-Security-Policy': pageContentSecurityPolicy,
  'Cache-Control': 'no-store',
};
