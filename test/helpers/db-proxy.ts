// A test database reached through a local TCP proxy that a test can cut, black-hole and restore, to see
// how the service behaves while its database is away without touching the shared PostgreSQL server.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { openDatabase, readArrayTypesOnce, type Database, type DatabaseOptions } from '../../src/db/connection.ts';
import { createTestDatabase } from './db.ts';

export interface ProxiedDatabase {
  db: Database;
  /** Drops every open connection and refuses new ones, as a restarting server does. */
  cut(): Promise<void>;
  /**
   * Stops forwarding bytes either way and keeps every connection open, new ones included: a silent
   * network partition (no RST, no FIN). What was sent meanwhile is delivered once restored, as TCP would.
   */
  blackHole(): void;
  /** Accepts connections again on the same port, and forwards bytes again. */
  restore(): Promise<void>;
  /** How many times a client has sent a message holding `text` through the proxy. */
  sentCount(text: string): number;
}

/** A client connection and its upstream, forwarded while the proxy is not black-holed. */
interface Pair {
  client: Socket;
  upstream?: Socket;
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

function proxyServer(
  target: Target,
  sockets: Set<Socket>,
  pairs: Set<Pair>,
  holding: () => boolean,
  sent: Buffer[],
): Server {
  return createServer((client) => {
    const pair: Pair = { client };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => sent.push(chunk));
    track(client, sockets, pair, pairs);
    // Accepted but not forwarded: the connection attempt hangs as it would across a partition.
    if (holding()) client.pause();
    else forward(pair, target, sockets, pairs);
  });
}

function track(socket: Socket, sockets: Set<Socket>, pair: Pair, pairs: Set<Pair>): void {
  sockets.add(socket);
  socket.on('close', () => {
    sockets.delete(socket);
    pairs.delete(pair);
  });
  socket.on('error', () => {
    pair.client.destroy();
    pair.upstream?.destroy();
  });
}

function forward(pair: Pair, target: Target, sockets: Set<Socket>, pairs: Set<Pair>): void {
  pair.upstream ??= connect(target);
  if (!sockets.has(pair.upstream)) track(pair.upstream, sockets, pair, pairs);
  pair.client.pipe(pair.upstream).pipe(pair.client);
}

function stall(pair: Pair): void {
  pair.client.unpipe();
  pair.upstream?.unpipe();
  pair.client.pause();
  pair.upstream?.pause();
}

/** A plain postgres.js client that, like the service's, reads the server's array types on its first connection only. */
async function plainClient(url: string, o: postgres.Sql['options']): Promise<postgres.Sql> {
  const sql = postgres(url, { max: o.max, connection: o.connection, onnotice: () => {} });
  await sql`select 1`;
  readArrayTypesOnce(sql);
  return sql;
}

/**
 * A fresh migrated test database (PGlite or a PostgreSQL schema) whose client, opened as the service
 * opens PostgreSQL (with `bounds`: its timeouts), goes through the proxy. It has no connection string
 * for the job queue: a service on it runs without jobs.
 */
export async function createProxiedDatabase(
  bounds: Pick<DatabaseOptions, 'connectTimeoutMs' | 'queryTimeoutMs'> = {},
): Promise<ProxiedDatabase> {
  const direct = await createTestDatabase();
  const o = direct.sql.options;
  const target: Target = o.path ? { path: o.path } : { host: o.host[0], port: o.port[0] };
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  let blackHoled = false;
  const sent: Buffer[] = [];
  let server = proxyServer(target, sockets, pairs, () => blackHoled, sent);
  const port = await listenOn(server, 0);
  const searchPath = (o.connection as Record<string, string | undefined>).search_path;
  const url = `postgres://${encodeURIComponent(o.user)}@127.0.0.1:${port}/${encodeURIComponent(o.database)}`;
  // With bounds, the client the service opens on PostgreSQL; without, a plain postgres.js client (on
  // PGlite's socket server, the service's client recovers from a cut only after its connect timeout).
  const sql =
    bounds.connectTimeoutMs || bounds.queryTimeoutMs
      ? (await openDatabase({ databaseUrl: url, poolSize: o.max, ...(searchPath && { searchPath }), ...bounds })).sql
      : await plainClient(url, o);
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
    blackHole() {
      blackHoled = true;
      for (const pair of pairs) stall(pair);
    },
    async restore() {
      if (blackHoled) {
        blackHoled = false;
        for (const pair of pairs) forward(pair, target, sockets, pairs);
        return;
      }
      server = proxyServer(target, sockets, pairs, () => blackHoled, sent);
      await listenOn(server, port);
    },
    sentCount: (text) => sent.filter((chunk) => chunk.includes(text)).length,
  };
}
