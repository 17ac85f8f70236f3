// Runs a transaction again when the database rolled it back for meeting another at the same moment (a deadlock,
// a serialization failure): nothing of it was written, and PostgreSQL's advice is to run it again. Only for work
// whose every effect is inside the transaction, so that running it twice is running it once.
import * as timers from 'node:timers/promises';
import type { Sql, TransactionSql } from 'postgres';
import { isTransactionConflict } from './availability.ts';

const ATTEMPTS = 3;

/** `work` in a transaction of `sql`, run up to three times while it fails with a conflict. */
export async function retriedTransaction<T>(sql: Sql, work: (tx: TransactionSql) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin((tx) => work(tx))) as T;
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransactionConflict(error)) throw error;
      // A random pause of up to 20, then 40 ms, so the two transactions that met do not meet again at once.
      await timers.setTimeout(Math.random() * 20 * 2 ** (attempt - 1));
    }
  }
}
