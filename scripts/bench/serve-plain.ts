// The baseline target: a plain node:http server answering a small JSON body, in its own process.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAsChild } from './child-protocol.ts';

const body = JSON.stringify({ status: 'ok' });

await runAsChild(async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
