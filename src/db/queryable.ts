// What every data function takes first: the pool or an open transaction, so one function serves a
// single statement and a step of a larger transaction alike.
import type { Sql, TransactionSql } from 'postgres';

export type Queryable = Sql | TransactionSql;

/**
 * postgres.js types a transaction's tagged template apart from the pool's although both run the same
 * queries; this view lets a data function write one query for either.
 */
export const query = (q: Queryable): Sql => q as Sql;

/** Cheapest round trip that proves the database answers. */
export async function ping(q: Queryable): Promise<void> {
  await query(q)`select 1`;
}
