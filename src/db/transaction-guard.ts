// Refuses a query on the pool from code that runs inside one of that pool's open transactions. Such a
// query waits for a pool connection while the transaction holds one: on the embedded database (one
// connection) it waits forever, on PostgreSQL it does once as many transactions run at once as the pool
// has connections, and every other request then waits behind them. It is easy to write: a helper given
// `deps` inside `sql.begin(tx => …)` reaches `deps.db.sql`. Types cannot stop that (the callback's closure
// holds `deps`), so the pool itself checks, through the async context `begin` runs its callback in.
//
// The guard is on in production too: what it refuses would hang, and an error names the query's caller
// in the log while a hang names nothing. Its cost is one AsyncLocalStorage lookup per pool query and one
// context per transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sql, TransactionSql } from 'postgres';

interface OpenTransaction {
  pool: Sql;
  /** False once the callback settled: work it started and left running may use the pool again. */
  open: boolean;
}

// One context for every pool: a transaction of one database may run inside a transaction of another.
const transactions = new AsyncLocalStorage<readonly OpenTransaction[]>();
// On Node 20 and 22 an enabled AsyncLocalStorage runs a hook on every promise the process makes (≈0.2 µs each, a
// few dozen per request), so it is enabled only while a transaction is open: `run` enables it, and the last
// transaction to settle disables it. Nothing is lost: with none open, no code can be inside one, and a context
// left on older async resources holds only settled markers.
let openCount = 0;

export class PoolInTransactionError extends Error {
  constructor(what: string) {
    super(
      `${what} on the pool inside one of its open transactions would wait for the connection that transaction holds: use the transaction instead`,
    );
    this.name = 'PoolInTransactionError';
  }
}

/** True while the calling code runs inside a transaction `pool.begin` opened and has not finished. */
export function insideTransaction(pool: Sql): boolean {
  return transactions.getStore()?.some((t) => t.pool === pool && t.open) ?? false;
}

/** Throws PoolInTransactionError when `insideTransaction(pool)`; `what` names the refused call. */
export function refuseInsideTransaction(pool: Sql, what: string): void {
  if (insideTransaction(pool)) throw new PoolInTransactionError(what);
}

// The pool calls that take a connection of their own. `listen` and `subscribe` use dedicated
// connections, and the value helpers (`json`, `array`, identifiers) run nothing.
const CONNECTING = new Set<PropertyKey>(['unsafe', 'file', 'notify', 'reserve']);

/** `pool` with its queries, transactions and reservations refused inside its own open transactions. */
export function guardPool(pool: Sql): Sql {
  const begin = async (...args: unknown[]): Promise<unknown> => {
    refuseInsideTransaction(guarded, 'a transaction');
    const fn = args.pop() as (tx: TransactionSql) => unknown;
    const marker: OpenTransaction = { pool: guarded, open: true };
    const context = [...(transactions.getStore() ?? []), marker];
    const run = (tx: TransactionSql) => {
      openCount += 1;
      return transactions.run(context, async () => {
        try {
          const result = fn(tx);
          // postgres.js runs an array of queries returned by the callback as one batch.
          return await (Array.isArray(result) ? Promise.all(result) : result);
        } finally {
          marker.open = false;
          openCount -= 1;
          if (openCount === 0) transactions.disable();
        }
      });
    };
    return (pool.begin as (...a: unknown[]) => Promise<unknown>)(...args, run);
  };
  const wrapped = new Map<PropertyKey, unknown>();
  const guarded: Sql = new Proxy(pool, {
    apply(target, thisArg, args: unknown[]) {
      // A tagged template is a query; `sql(value)` builds an identifier or a list and runs nothing.
      if (isTemplate(args[0])) refuseInsideTransaction(guarded, 'a query');
      return Reflect.apply(target, thisArg, args);
    },
    get(target, key) {
      if (key === 'begin') return begin;
      const value = Reflect.get(target, key) as unknown;
      if (!CONNECTING.has(key) || typeof value !== 'function') return value;
      if (!wrapped.has(key)) {
        wrapped.set(key, (...args: unknown[]) => {
          refuseInsideTransaction(guarded, `sql.${String(key)}`);
          return Reflect.apply(value, target, args);
        });
      }
      return wrapped.get(key);
    },
  });
  return guarded;
}

const isTemplate = (value: unknown): boolean => Array.isArray(value) && 'raw' in value && Array.isArray(value.raw);
