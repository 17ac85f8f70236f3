// A TCP proxy in front of PostgreSQL (or of embedded PGlite's unix socket) that reads the wire protocol's
// framing to measure what a client costs the database: round trips (a Sync or simple Query answered by
// ReadyForQuery, exactly) and the time its connections spent waiting on one (summed over connections). The
// service under measurement connects through it; nothing else does.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface DbMeter {
  url: string;
  read(): { roundTrips: number; busyMs: number };
  close(): Promise<void>;
}

type Frames = { buf: Buffer; started: boolean };

/** Calls `each` with the type byte of every whole message; the client's first message (startup) has none. */
function frames(state: Frames, chunk: Buffer, each: (type: number) => void): void {
  state.buf = state.buf.length ? Buffer.concat([state.buf, chunk]) : chunk;
  let at = 0;
  for (;;) {
    if (!state.started) {
      if (state.buf.length - at < 4) break;
      const len = state.buf.readInt32BE(at);
      if (state.buf.length - at < len) break;
      at += len;
      state.started = true;
      continue;
    }
    if (state.buf.length - at < 5) break;
    const total = 1 + state.buf.readInt32BE(at + 1);
    if (state.buf.length - at < total) break;
    each(state.buf[at]);
    at += total;
  }
  state.buf = state.buf.subarray(at);
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const READY = 0x5a; // 'Z'

/** `databaseUrl`: a PostgreSQL URL, or a libpq-style one whose `host` parameter names a unix socket folder. */
export async function startDbMeter(databaseUrl: string): Promise<DbMeter> {
  const target = new URL(databaseUrl);
  const socketDir = target.searchParams.get('host');
  const upstreamOf = () =>
    socketDir
      ? connect(join(socketDir, `.s.PGSQL.${target.port || 5432}`))
      : connect(Number(target.port || 5432), target.hostname);
  let roundTrips = 0;
  let busyMs = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = upstreamOf();
    // No Nagle on either side: a reply that reaches the proxy in pieces (PGlite's socket server writes each part as
    // it comes, from its own thread) would otherwise wait for the client's delayed ACK, about 40 ms a round trip.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    let pending = 0;
    let since = 0;
    const fromClient: Frames = { buf: Buffer.alloc(0), started: false };
    const fromServer: Frames = { buf: Buffer.alloc(0), started: true };
    client.on('data', (chunk: Buffer) => {
      frames(fromClient, chunk, (type) => {
        if (type !== SYNC && type !== QUERY) return;
        if (pending++ === 0) since = performance.now();
      });
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      frames(fromServer, chunk, (type) => {
        if (type !== READY || pending === 0) return;
        roundTrips += 1;
        if (--pending === 0) busyMs += performance.now() - since;
      });
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(databaseUrl);
  proxied.searchParams.delete('host');
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.href,
    read: () => ({ roundTrips, busyMs }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
