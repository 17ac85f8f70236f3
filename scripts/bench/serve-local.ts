// Serves an app built in this process on 127.0.0.1 (a free port), for the rows that call the real
// service over HTTP from the benchmark's own process (wake-up latency, knowledge search).
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { createApp } from '../../src/app.ts';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function serveLocal(app: ReturnType<typeof createApp>): Promise<LocalServer> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
