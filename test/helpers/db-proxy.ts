// A test database reached through a local TCP proxy that a test can cut and restore, to see how the
// service behaves while its database is away without touching the shared PostgreSQL server.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from './db.ts';

export interface ProxiedDatabase {
  db: Database;
  /** Drops every open connection and refuses new ones, as a restarting server does. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
}

type Target = { path: string } | { host: string; port: number };

function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function proxyServer(target: Target, sockets: Set<Socket>): Server {
  return createServer((client) => {
    const upstream = connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
}

/** A fresh migrated test database (PGlite or a PostgreSQL schema) whose client goes through the proxy. */
export async function createProxiedDatabase(): Promise<ProxiedDatabase> {
  const direct = await createTestDatabase();
  const o = direct.sql.options;
  const target: Target = o.path ? { path: o.path } : { host: o.host[0], port: o.port[0] };
  const sockets = new Set<Socket>();
  let server = proxyServer(target, sockets);
  const port = await listenOn(server, 0);
  const sql = postgres({
    host: '127.0.0.1',
    port,
    user: o.user,
    database: o.database,
    max: o.max,
    connection: o.connection,
    onnotice: () => {},
  });
  const close = async (): Promise<void> => {
    // A bounded end: after an outage postgres.js 3.4 can leave a connection whose end() never settles.
    await sql.end({ timeout: 1 });
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    await direct.close();
  };
  return {
    db: { sql, kind: direct.kind, close },
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restore() {
      server = proxyServer(target, sockets);
      await listenOn(server, port);
    },
  };
}
