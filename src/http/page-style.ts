// Serves page.css, the one stylesheet of the pages the service renders itself (page.ts links it). Their
// CSP allows styles from this origin only, so it is a file here, never an inline style or another host.
// It holds nothing private, and the admin panel shows a blog preview in a sandboxed iframe (an opaque
// origin, which a same-origin resource policy would refuse), so any origin may load it.
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { securityHeaders } from './security-headers.ts';
import { etagMatches, etagOf } from './etag.ts';

export const PAGE_STYLE_PATH = '/page.css';

const body = new Uint8Array(readFileSync(new URL('./page.css', import.meta.url)));
const etag = etagOf(body);

export function pageStyleRoutes(app: Hono<any>): void {
  app.get(PAGE_STYLE_PATH, (c) => {
    const headers = new Headers({
      ...securityHeaders,
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Cache-Control': 'no-cache',
      ETag: etag,
    });
    if (etagMatches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    headers.set('Content-Type', 'text/css; charset=utf-8');
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
  });
}
