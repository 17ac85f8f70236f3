// The app on a real port known before it starts: the connector flow calls the service's own sandbox
// provider over HTTP and builds links from PUBLIC_BASE_URL, so both must name the port it listens on.
import { serve } from '@hono/node-server';
import { freePort } from '../../helpers/prism.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/app.ts';

export async function listenOnReservedPort(
  options: TestAppOptions = {},
): Promise<{ app: TestApp; server: { url: string; close(): Promise<void> } }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = await createTestApp({
    ...options,
    env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: url, ...options.env },
  });
  const server = serve({ fetch: app.app.fetch, port, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { app, server: { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) } };
}
