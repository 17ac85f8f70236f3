// GET /openapi.json serves the contract; GET /docs an interactive reference (Scalar), with its script
// served from this service so the page works without reaching any CDN.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { AppEnv } from './request-context.ts';

const require = createRequire(import.meta.url);
// The package exports no path to its browser bundle, so it is found beside the resolved entry (dist/).
const scalarBundle = join(dirname(require.resolve('@scalar/api-reference')), 'browser/standalone.js');

export function docsRoutes(app: Hono<AppEnv>, document: Record<string, unknown>): void {
  const json = JSON.stringify(document);
  app.get('/openapi.json', (c) => c.body(json, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' }));
  app.get('/docs/scalar.js', () => {
    const body = Readable.toWeb(createReadStream(scalarBundle)) as ReadableStream;
    return new Response(body, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
  });
  app.get('/docs', Scalar({ url: '/openapi.json', cdn: '/docs/scalar.js', pageTitle: 'Agent-Automation Platform API' }));
}
