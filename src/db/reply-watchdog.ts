// Ends a database connection that stopped answering without closing. A network partition or a proxy
// that stops forwarding sends no RST, so TCP reports nothing for many minutes (its retransmission
// timeout; keepalive probes only run on an idle connection and are answered by any proxy) and every
// query on the connection waits as long. The watchdog follows the wire protocol on the socket: while
// a request awaits its ReadyForQuery (or any answer to what was just written), a silence of `timeoutMs` in both directions closes the socket,
// which fails the waiting queries (CONNECTION_CLOSED: a 503 `database_unavailable`) and makes the pool
// open a new connection, bounded by its connect timeout. It is closed without an error on purpose:
// postgres.js 3.4 fails the queries still queued on a connection only when it closes without one
// (after an error, a query sent between the error and the close would wait forever). A statement legitimately slower than the
// bound is stopped first by the server's statement_timeout, set to the same bound.
// TLS hides the messages from a socket under it: after an SSLRequest the watchdog stands aside.
import type { Socket } from 'node:net';

const SSL_REQUEST_CODE = 80877103;
// Messages whose answer ends with ReadyForQuery: Sync (extended protocol) and Query (simple protocol).
const SYNC = 0x53;
const QUERY = 0x51;
const READY_FOR_QUERY = 0x5a;
const EMPTY = Buffer.alloc(0);

/** Splits a byte stream into protocol messages (a type byte and a length that counts itself) and reports each type. */
function messageReader(onType: (type: number) => void, untyped: boolean) {
  let header = EMPTY;
  let skip = 0;
  let first = untyped;
  return (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      const size = first ? 4 : 5;
      let view: Buffer;
      if (header.length === 0 && chunk.length - at >= size) {
        // The usual case: the whole header is in this chunk, read in place with no copy.
        view = chunk.subarray(at, at + size);
        at += size;
      } else {
        const need = size - header.length;
        header = Buffer.concat([header, chunk.subarray(at, at + need)]);
        at += Math.min(need, chunk.length - at);
        if (header.length < size) return;
        view = header;
        header = EMPTY;
      }
      if (first) {
        // The startup or SSL request: a length, then a code, no type byte.
        skip = view.readInt32BE(0) - 4;
        onType(-1);
        first = false;
      } else {
        skip = view.readInt32BE(1) - 4;
        onType(view[0]);
      }
    }
  };
}

/** Watches `socket` (before it is used); returns it. */
export function watchReplies(socket: Socket, timeoutMs: number): Socket {
  // The startup message is answered by ReadyForQuery once authentication is done.
  let awaited = 1;
  let tls = false;
  // Bytes written since the last byte received: a Parse/Describe/Flush (postgres.js's first use of a
  // statement) awaits an answer that ends without ReadyForQuery.
  let unanswered = false;
  let timer: NodeJS.Timeout | undefined;
  const fire = (): void => {
    socket.destroy();
  };
  const activity = (): void => {
    clearTimeout(timer);
    timer = (awaited > 0 || unanswered) && !tls && !socket.destroyed ? setTimeout(fire, timeoutMs) : undefined;
  };
  let firstWrite = true;
  const outgoing = messageReader((type) => {
    if (type === SYNC || type === QUERY) awaited += 1;
  }, true);
  const incoming = messageReader((type) => {
    if (type === READY_FOR_QUERY) awaited -= 1;
  }, false);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = (...args: unknown[]) => {
    const data = args[0];
    if (!tls && (Buffer.isBuffer(data) || data instanceof Uint8Array)) {
      const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      if (firstWrite && chunk.length >= 8 && chunk.readInt32BE(4) === SSL_REQUEST_CODE) tls = true;
      else outgoing(chunk);
      firstWrite = false;
      unanswered = true;
      activity();
    }
    return write(...args);
  };
  // Registered once the caller listens too (postgres.js and pg both do before writing): no data can come earlier.
  socket.on('data', (chunk: Buffer) => {
    if (tls) return;
    incoming(chunk);
    unanswered = false;
    activity();
  });
  socket.once('close', () => clearTimeout(timer));
  return socket;
}
