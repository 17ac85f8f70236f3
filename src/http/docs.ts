// GET /openapi.json serves the contract; GET /docs an interactive reference (Scalar) and /docs/errors the
// error reference every problem's `type` points at; GET /favicon.ico the service's icon. Every asset the
// reference page loads comes from this service: no font, proxy, AI or sharing service of Scalar's.
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import { errorReferenceHeaders, errorReferencePage, errorReferenceStylesheet } from './error-reference-page.ts';
import type { AppEnv } from './request-context.ts';

const require = createRequire(import.meta.url);
// The package exports no path to its browser bundle, so it is found beside the resolved entry (dist/).
const scalarBundle = join(dirname(require.resolve('@scalar/api-reference')), 'browser/standalone.js');
const favicon = readFileSync(new URL('./assets/favicon.ico', import.meta.url));

/** Paths served here besides the contract's operations, for the service's 404/405 table. */
export const docsPaths = [
  '/openapi.json',
  '/docs',
  '/docs/scalar.js',
  '/docs/errors',
  '/docs/errors.css',
  '/favicon.ico',
].map((path) => ({ path, methods: ['GET'] }));

// What Scalar shows by default but this service does not offer: its hosted fonts, its CORS proxy (unset:
// requests go straight to this origin), the "Ask AI" agent, the toolbar's Share / Deploy / Configure,
// the API client's button, and telemetry.
const scalarOptions = {
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  telemetry: false,
  favicon: '/favicon.ico',
} as const;

export function docsRoutes(app: Hono<AppEnv>, document: () => Record<string, unknown>): void {
  let json: string | undefined;
  app.get('/openapi.json', (c) =>
    c.body((json ??= JSON.stringify(document())), 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache',
    }),
  );
  app.get('/docs/scalar.js', () => {
    const body = Readable.toWeb(createReadStream(scalarBundle)) as ReadableStream;
    return new Response(body, {
      headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
    });
  });
  app.get(
    '/docs',
    Scalar({
      url: '/openapi.json',
      cdn: '/docs/scalar.js',
      pageTitle: 'Agent-Automation Platform API',
      ...scalarOptions,
    }),
  );
  app.get('/docs/errors', async (c) => c.body(await errorReferencePage(), 200, errorReferenceHeaders));
  app.get('/docs/errors.css', (c) =>
    c.body(errorReferenceStylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  app.get('/favicon.ico', (c) =>
    c.body(favicon, 200, { 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400' }),
  );
}
