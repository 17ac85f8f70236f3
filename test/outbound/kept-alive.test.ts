// A kept-alive connection the server drops just as the next request goes out on it: an idempotent request is
// sent again on a new connection (it never reached the server), any other fails as the server left it.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createOutboundClient, type OutboundClient } from '../../src/outbound/outbound-client.ts';

interface DroppingServer {
  origin: string;
  /** Connections accepted, and requests that arrived on a connection it then reset. */
  connections: number;
  dropped: number;
  close(): Promise<void>;
}

/** Answers the first request of each connection, keeps the connection open, and resets it when another comes. */
async function droppingServer(): Promise<DroppingServer> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, dropped: 0 };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let answered = false;
    socket.on('data', () => {
      if (answered) {
        state.dropped++;
        socket.resetAndDestroy();
        return;
      }
      answered = true;
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return state.connections;
    },
    get dropped() {
      return state.dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let server: DroppingServer | undefined;
let client: OutboundClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

async function setUp(): Promise<{ server: DroppingServer; client: OutboundClient }> {
  server = await droppingServer();
  client = createOutboundClient(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound);
  return { server, client };
}

describe('a kept-alive connection the server has dropped', () => {
  it('sends a GET again on a new connection, and it succeeds', async () => {
    const { server, client } = await setUp();
    expect(await (await client.fetch(`${server.origin}/robots.txt`)).text()).toBe('ok');
    expect(await (await client.fetch(`${server.origin}/robots.txt`)).text()).toBe('ok');
    expect(server.dropped).toBe(1);
    expect(server.connections).toBe(2);
  });

  it('does not send a POST again, since the server may have acted on it', async () => {
    const { server, client } = await setUp();
    expect(await (await client.fetch(`${server.origin}/`)).text()).toBe('ok');
    const error = await client.fetch(`${server.origin}/send`, { method: 'POST', body: '{}' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ reason: 'connection_failed' });
    expect(server.dropped).toBe(1);
    expect(server.connections).toBe(1);
  });
});
