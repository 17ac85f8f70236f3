// Checkpoints that make a job's side effects safe to repeat: a step's effect and its row in
// job_effects are written in one transaction, so after a crash and a retry the step either
// committed (and is skipped, its result returned) or left nothing behind (and runs again).
import type postgres from 'postgres';
import type { Sql, TransactionSql } from 'postgres';

/**
 * Runs `fn(tx)` unless `key` was already recorded in this database. A concurrent run of the
 * same key (an expired job's worker still alive) waits on the key's row and then skips.
 */
export async function runOnce<T>(
  tx: TransactionSql,
  key: string,
  fn: (tx: TransactionSql) => Promise<T>,
): Promise<{ ran: boolean; result: T }> {
  const claimed = await tx`insert into job_effects (key) values (${key}) on conflict (key) do nothing returning key`;
  if (claimed.length === 0) {
    const [row] = await tx`select result from job_effects where key = ${key}`;
    return { ran: false, result: row.result as T };
  }
  const result = await fn(tx);
  await tx`update job_effects set result = ${tx.json(result ?? null)} where key = ${key}`;
  return { ran: true, result };
}

/** `JobContext.once`: a transaction per step, keyed by job id and step name. */
export function onceForJob(sql: Sql, jobId: string) {
  return async <T>(step: string, fn: (tx: TransactionSql) => Promise<T>): Promise<T> => {
    const outcome = await sql.begin((tx) => runOnce(tx, `job:${jobId}:${step}`, fn));
    return (outcome as { result: T }).result;
  };
}

/** Deletes checkpoints older than the given age; a job is long finished or dead by then. */
export async function sweepEffects(sql: Sql, olderThanDays: number): Promise<number> {
  const rows =
    await sql`delete from job_effects where created_at < now() - make_interval(days => ${olderThanDays}) returning 1`;
  return rows.length;
}
