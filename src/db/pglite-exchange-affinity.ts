// PGlite as its socket server should see it, so that one connection's extended-protocol exchange is never cut in
// two by another connection's messages.
import type { PGlite } from '@electric-sql/pglite';

// Front-end message types (PostgreSQL protocol 3.0) that open or continue an extended-protocol exchange, and the
// ones that end it: Sync, a simple Query (complete in itself) and Terminate.
const EXCHANGE = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const EXCHANGE_END = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));

type ExecProtocolRawStream = PGlite['execProtocolRawStream'];

/**
 * The PGlite to hand PGLiteSocketServer: "in a transaction" also while a connection's extended-protocol exchange is
 * open, from its first Parse, Bind, Describe, Execute, Close or Flush to its Sync.
 *
 * The socket server runs every connection's messages one at a time on PGlite's single backend, and keeps to one
 * connection only while the backend is in a transaction block. The unnamed statement and portal are the backend's,
 * not a connection's: when a connection's exchange arrived in two socket reads (a large Bind, a proxy, a loaded
 * machine), another connection's Parse and Bind ran between them and replaced the unnamed portal, and the first
 * connection's Execute ran the other's statement with the other's values (seen in the sending bench as `invalid
 * input syntax for type bigint: "e458"`; it can as well succeed with another's values). The service's pool, the
 * job queue's `pg` pool and a test's own client all share the backend this way. Held until its Sync, an exchange
 * runs whole; the other connections' messages wait in the server's queue, as they do behind a transaction, and a
 * connection that goes away mid-exchange is rolled back by the server (it calls `exec('ROLLBACK')`), which ends it.
 */
export function withExchangeAffinity(pglite: PGlite): PGlite {
  let open = false;
  const execProtocolRawStream: ExecProtocolRawStream = (message, options) => {
    const type = message[0];
    if (EXCHANGE.has(type)) open = true;
    else if (EXCHANGE_END.has(type)) open = false;
    return pglite.execProtocolRawStream(message, options);
  };
  const overrides: Partial<Record<PropertyKey, unknown>> = {
    execProtocolRawStream,
    isInTransaction: () => open || pglite.isInTransaction(),
    exec: (...args: Parameters<PGlite['exec']>) => {
      open = false;
      return pglite.exec(...args);
    },
  };
  // The server asks for a method per protocol message: each is bound to PGlite once, not at every ask.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(pglite, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key];
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (!bound.has(key)) bound.set(key, value.bind(target));
      return bound.get(key);
    },
  });
}
