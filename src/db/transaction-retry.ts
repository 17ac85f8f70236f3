// Runs a transaction again when the database rolled it back for meeting another at the same moment (a deadlock,
// a serialization failure): nothing of it was written, and PostgreSQL's advice is to run it again. Only for work
// whose every effect is inside the transaction, so that running it twice is running it once.
import * as timers from 'node:timers/promises';
import { isTransactionConflict } from './availability.ts';

/** Runs `transaction` up to `attempts` times while it fails with a conflict; a pause of up to 20, 40, … ms between. */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      // A random pause, so the two transactions that met do not meet again at once.
      await timers.setTimeout(Math.random() * 20 * 2 ** (attempt - 1));
    }
  }
}
