// The pool refuses to be queried from inside one of its own open transactions, where the query would wait
// for the connection the transaction holds (forever on the embedded database). The time limit only turns
// such a wait into a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { insideTransaction, PoolInTransactionError } from '../../src/db/transaction-guard.ts';
import { createTestDatabase } from '../helpers/db.ts';

const HANG = 20_000;

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`create table guard_notes (note text not null)`;
});
afterAll(async () => {
  await db?.close();
});

const notes = async () =>
  (await db.sql<{ note: string }[]>`select note from guard_notes order by note`).map((r) => r.note);

describe('the pool inside its own transaction', () => {
  it('refuses a query, rolls the transaction back and keeps answering', { timeout: HANG }, async () => {
    const attempt = db.sql.begin(async (tx) => {
      await tx`insert into guard_notes values ('rolled back')`;
      await db.sql`select 1`;
    });
    await expect(attempt).rejects.toThrow(PoolInTransactionError);
    expect(await notes()).toEqual([]);
  });

  it('refuses sql.unsafe, sql.notify, sql.reserve and a nested sql.begin', { timeout: HANG }, async () => {
    const refused: string[] = [];
    const calls: Array<[string, () => unknown]> = [
      ['unsafe', () => db.sql.unsafe('select 1')],
      ['notify', () => db.sql.notify('guard', 'x')],
      ['reserve', () => db.sql.reserve()],
      ['begin', () => db.sql.begin(() => Promise.resolve())],
    ];
    await db.sql.begin(async () => {
      for (const [what, call] of calls) {
        await Promise.resolve()
          .then(call)
          .catch((error: unknown) => error instanceof PoolInTransactionError && refused.push(what));
      }
    });
    expect(refused).toEqual(['unsafe', 'notify', 'reserve', 'begin']);
  });

  it("runs the transaction's own queries and the pool's value helpers", { timeout: HANG }, async () => {
    await db.sql.begin(async (tx) => {
      expect(insideTransaction(db.sql)).toBe(true);
      await tx`insert into guard_notes ${db.sql({ note: 'kept' })}`;
      await tx`insert into guard_notes (note) select value ->> 'note' from jsonb_array_elements(${db.sql.json([{ note: 'json' }])})`;
    });
    expect(insideTransaction(db.sql)).toBe(false);
    expect(await notes()).toEqual(['json', 'kept']);
    await db.sql`delete from guard_notes`;
  });

  it('lets work started inside the transaction use the pool once the transaction ended', {
    timeout: HANG,
  }, async () => {
    let later: () => Promise<unknown> = async () => undefined;
    await db.sql.begin(async (tx) => {
      await tx`insert into guard_notes values ('committed')`;
      later = () => db.sql`select note from guard_notes`;
    });
    expect(await later()).toEqual([{ note: 'committed' }]);
    await db.sql`delete from guard_notes`;
  });

  it("runs another database's queries inside this one's transaction", { timeout: HANG }, async () => {
    const other = await createTestDatabase();
    try {
      const answer = await db.sql.begin(async () => other.sql<{ one: number }[]>`select 1 as one`);
      expect(answer).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
    }
  });
});

describe('DATABASE_TRANSACTION_GUARD', () => {
  it('is on unless set to false', () => {
    const base = { JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).database.transactionGuard).toBe(true);
    expect(loadConfig({ ...base, DATABASE_TRANSACTION_GUARD: 'false' }).database.transactionGuard).toBe(false);
  });
});

// On PostgreSQL only: on the embedded database's one connection the unguarded query would wait for good.
describe.runIf(Boolean(process.env.DATABASE_URL))('DATABASE_TRANSACTION_GUARD=false', () => {
  it('leaves the pool unguarded: a pool query inside its transaction takes another connection', {
    timeout: HANG,
  }, async () => {
    const plain = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 2, transactionGuard: false });
    try {
      const answer = await plain.sql.begin(async () => plain.sql<{ one: number }[]>`select 1 as one`);
      expect(answer).toEqual([{ one: 1 }]);
    } finally {
      await plain.close();
    }
  });
});
