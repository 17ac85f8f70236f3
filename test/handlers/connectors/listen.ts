// The app on a real port known before it starts: the connector flow calls the service's own sandbox
// provider over HTTP and builds links from PUBLIC_BASE_URL, so both must name the port it listens on.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/app.ts';

export async function listenOnReservedPort(
  options: TestAppOptions = {},
): Promise<{ app: TestApp; server: { url: string; close(): Promise<void> } }> {
  // The port is bound first and the app built for it after: a port found free, closed and bound again later could
  // meanwhile be taken, by any outgoing connection of the machine (its local ports come from the same range).
  let fetch: TestApp['app']['fetch'] | undefined;
  const server = serve({
    fetch: (request, env) => (fetch ? fetch(request, env) : new Response('starting', { status: 503 })),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  try {
    const app = await createTestApp({
      ...options,
      env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: url, ...options.env },
    });
    fetch = app.app.fetch;
    return { app, server: { url, close } };
  } catch (error) {
    await close();
    throw error;
  }
}
