// Serves the admin panel at /admin (the pages are in src/admin/public/shell.js's navigation). The panel is static:
// one HTML shell for every page, its script bundle and stylesheets; it talks to the public REST API only, through
// the generated SDK.
import type { Context, Hono } from 'hono';
import { ApiError } from '../errors.ts';
import { etagMatches } from '../http/etag.ts';
import { securityHeaders } from '../http/security-headers.ts';
import type { AppEnv } from '../http/request-context.ts';
import { adminAssets, assetsBase, type AdminAssets, type StaticFile } from './assets.ts';

/** The panel's pages: each answers with the same shell, which routes on the client. */
export const adminPages = [
  '/admin',
  '/admin/leads',
  '/admin/knowledge',
  '/admin/sequences',
  '/admin/replies',
  '/admin/agent-runs',
  '/admin/workspace',
  '/admin/webhooks',
  '/admin/events',
  '/admin/approvals',
  '/admin/sent-messages',
  '/admin/webinars',
  '/admin/blog-posts',
  '/admin/ad-campaigns',
  '/admin/api-keys',
  '/admin/members',
  '/admin/connectors',
  '/admin/join',
  '/admin/signup',
] as const;

/** Detail pages: the same shell, for one lead or one sequence by id. */
export const adminDetailPages = ['/admin/leads/:id', '/admin/sequences/:id'] as const;

/** Paths for the service's 404/405 table. */
export const adminPaths = [
  ...adminPages,
  ...adminDetailPages.map((path) => path.replace(':id', '{id}')),
  '/admin/',
  '/admin/assets/{build}/{file}',
].map((path) => ({
  path,
  methods: ['GET'],
}));

const REVALIDATE = 'no-cache';
const FOREVER = 'public, max-age=31536000, immutable';

function serveFile(c: Context<AppEnv>, file: StaticFile, cacheControl: string): Response {
  const headers = new Headers({ ...securityHeaders, 'Cache-Control': cacheControl, ETag: file.etag });
  if (etagMatches(c.req.header('if-none-match'), file.etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', file.contentType);
  headers.set('Content-Length', String(file.body.byteLength));
  return new Response(c.req.method === 'HEAD' ? null : file.body, { status: 200, headers });
}

/** `assets` is asked on the first request to the panel, so a service that never serves it never bundles it. */
export function adminRoutes(app: Hono<AppEnv>, assets: () => AdminAssets = adminAssets): void {
  for (const path of [...adminPages, ...adminDetailPages])
    app.get(path, (c) => serveFile(c, assets().page, REVALIDATE));
  app.get('/admin/', (c) => c.redirect('/admin', 308));
  app.get('/admin/assets/:build/:file', (c) => {
    const file = assets().files.get(c.req.param('file'));
    if (!file) throw new ApiError('not_found', `No admin asset ${c.req.param('file')}.`);
    // A page from an earlier deploy may still ask for its build; it gets today's file, revalidated.
    const current = c.req.path.startsWith(`${assetsBase(assets().buildId)}/`);
    return serveFile(c, file, current ? FOREVER : REVALIDATE);
  });
}
