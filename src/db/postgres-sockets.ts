// The sockets connection.ts hands postgres.js through its `socket` option: TCP with Nagle's algorithm off,
// and a failed connection in a form postgres.js notices.
import { connect, Socket } from 'node:net';

/** What postgres.js hands a socket factory (its parsed options), as far as noDelaySocket reads it. */
export interface SocketTarget {
  host: string[];
  port: number[];
  path?: string | false;
  connect_timeout?: number;
}

/**
 * A TCP connection to the server with Nagle's algorithm off. postgres.js leaves it on, and a small
 * message written while a larger one is not yet acknowledged (COPY's CopyDone after its data, a
 * Bind after the Parse it waited for) then waits for the server's delayed ACK: about 40 ms on Linux.
 * Measured on PostgreSQL 15, one batch of a lead import (COPY then insert, 5,000 rows): 87–135 ms
 * with Nagle, 42–50 ms without. Hosts are tried in order; a unix socket path is connected as it is.
 */
export function noDelaySocket(target: SocketTarget): Promise<Socket> {
  const attempts = target.path
    ? [{ path: target.path }]
    : target.host.map((host, i) => ({ host, port: target.port[i] ?? target.port[0] }));
  const timeoutMs = (target.connect_timeout ?? 30) * 1000;
  const attempt = (index: number, failure?: Error): Promise<Socket> => {
    const where = attempts[index];
    if (!where) return Promise.reject(failure ?? new Error('no database host to connect to'));
    return new Promise<Socket>((resolveSocket, reject) => {
      const socket =
        'path' in where
          ? connect({ path: where.path })
          : connect({ host: where.host, port: where.port, noDelay: true });
      socket.setTimeout(timeoutMs, () =>
        socket.destroy(new Error(`connecting to the database timed out after ${timeoutMs} ms`)),
      );
      socket.once('connect', () => {
        socket.setTimeout(0);
        socket.removeListener('error', reject);
        resolveSocket(socket);
      });
      socket.once('error', reject);
    }).catch((error: Error) => attempt(index + 1, error));
  };
  return attempt(0);
}

/**
 * A socket that fails with `error` as soon as postgres.js listens to it. A socket factory that rejects
 * instead leaves postgres.js 3.4's connection `connecting` for good (it never sees a close), and every
 * later query queued behind it: after one refused connection the pool would never answer again.
 */
export function failedSocket(error: Error): Socket {
  const socket = new Socket();
  setImmediate(() => socket.destroy(error));
  return socket;
}
