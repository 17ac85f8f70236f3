// The real app on a real port with `prism proxy --errors` in front of it. Both start at once (Prism
// takes seconds), so the server's port is chosen first and handed to both.
import { serve, type ServerType } from '@hono/node-server';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { freePort, startPrismProxy, type PrismServer } from '../helpers/prism.ts';

export interface ProxiedServer {
  app: TestApp;
  serverUrl: string;
  proxy: PrismServer;
  close(): Promise<void>;
}

export async function startProxiedServer(options: { spec?: string } = {}): Promise<ProxiedServer> {
  const port = await freePort();
  const serverUrl = `http://127.0.0.1:${port}`;
  const [app, proxy] = await Promise.all([
    createTestApp(),
    startPrismProxy(serverUrl, { spec: options.spec, flags: ['--errors'] }),
  ]);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  return {
    app,
    serverUrl,
    proxy,
    async close() {
      await proxy.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
