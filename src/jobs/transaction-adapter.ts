// Lets pg-boss run its SQL on a postgres.js connection or transaction, so a job is inserted in
// the caller's transaction: the state change and the job that follows it commit (or vanish) together.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from 'postgres';
import type PgBoss from 'pg-boss';

export function pgBossDb(sql: Sql | TransactionSql): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      // pg sends undefined as NULL; postgres.js refuses it, so do what pg-boss expects.
      const params = values.map((value) => (value === undefined ? null : value));
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return { rows };
    },
  };
}
