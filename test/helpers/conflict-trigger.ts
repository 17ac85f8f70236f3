// A trigger that fails rows of a table as PostgreSQL fails a transaction it rolls back for meeting another (a
// deadlock, 40P01; a serialization failure, 40001), a set number of times, on either database. For tests of what
// the service does with such a rollback; the real deadlock on PostgreSQL is in test/app/transaction-conflict.test.ts.
import type { Sql } from 'postgres';

export interface ConflictTrigger {
  /** How many rows it failed so far. */
  raised(): Promise<number>;
  /** Drops the trigger (its function and counter stay, harmless). */
  end(): Promise<void>;
}

const MESSAGES: Record<string, string> = {
  '40001': 'could not serialize access due to concurrent update',
  '40P01': 'deadlock detected',
};

/**
 * Fails the first `times` rows that `event` (insert, update) on `table` where `when` holds (a condition on `new`
 * and `old`), with `sqlstate`. `name` names the trigger, its function and its counter.
 */
export async function conflictTrigger(
  sql: Sql,
  options: { name: string; event: string; table: string; sqlstate: '40001' | '40P01'; times: number; when?: string },
): Promise<ConflictTrigger> {
  const { name, event, table, sqlstate, times, when = 'true' } = options;
  // A sequence's value is not rolled back with the failing transaction, so it counts the failures.
  await sql.unsafe(`drop sequence if exists ${name}_raised`);
  await sql.unsafe(`create sequence ${name}_raised`);
  await sql.unsafe(`
    create or replace function ${name}() returns trigger language plpgsql as $$
    begin
      if ${when} and nextval('${name}_raised') <= ${times} then
        raise exception '${MESSAGES[sqlstate]} (raised by the test)' using errcode = '${sqlstate}';
      end if;
      return new;
    end $$`);
  await sql.unsafe(`drop trigger if exists ${name} on ${table}`);
  await sql.unsafe(`create trigger ${name} before ${event} on ${table} for each row execute function ${name}()`);
  return {
    async raised() {
      // last_value is the sequence's start (1) until nextval is first called: is_called tells the two apart.
      const [row] = await sql.unsafe<{ n: number }[]>(
        `select case when is_called then last_value else 0 end::int as n from ${name}_raised`,
      );
      return Math.min(row.n, times);
    },
    async end() {
      await sql.unsafe(`drop trigger if exists ${name} on ${table}`);
    },
  };
}
