// Starting pg-boss and creating or updating the queues of the registered kinds, one process at a time, so
// that any number of service instances and workers can start together on a fresh database.
//
// Why pg-boss deadlocks without it: its create_queue() (pg-boss 10, src/plans.js createQueueFunction)
// inserts the queue's row into `queue` (ON CONFLICT DO NOTHING), then in the same transaction creates the
// queue's partition, adds foreign keys from it to `queue` and attaches it to `job`. The insert holds ROW
// EXCLUSIVE on `queue`; a foreign key referencing `queue` needs SHARE ROW EXCLUSIVE on it, which any other
// transaction's ROW EXCLUSIVE blocks. So when two processes create queues at once, A (at its foreign key)
// waits for B's insert to end, while B waits for A: its insert of the same name waits for A's uncommitted
// row, or it reaches its own foreign key. PostgreSQL kills one with 40P01 `deadlock detected`, and that
// process's start-up fails. pg-boss serializes its own install and migrations with an advisory lock, but not
// create_queue, which its start() also calls (its cron queue, errors swallowed there, so the victim may be
// the other process).
//
// Hence: each process holds a session-level advisory lock, on a connection of its own, from before pg-boss's
// start() until its last queue is written. The first creates the queues; the others wait, then find them and
// update them (a row update each, no DDL: without the lock, 15 rounds of six restarts at once never deadlocked).
// The lock lives in the server, so a process that dies releases it with its connection; a wait is bounded by
// that connection's statement timeout.
import type PgBoss from 'pg-boss';
import type { Sql } from 'postgres';
import type { JobKind } from './job-kind.ts';
import { queueLeaseSeconds } from './job-lease.ts';

export interface QueueSetup {
  boss: PgBoss;
  /** The service's pool: one of its connections is reserved to hold the lock. */
  sql: Sql;
  /** pg-boss's schema: the lock is per schema, as pg-boss's tables are. */
  schema: string;
  kinds: Iterable<JobKind>;
  leaseSeconds: number;
  /** False when no other process can start on this database (the embedded one): no lock is taken. */
  sharedDatabase: boolean;
}

/** Starts `boss` and creates or updates the kinds' queues, under the start-up lock when the database is shared. */
export async function startQueues(setup: QueueSetup): Promise<void> {
  const work = async (): Promise<void> => {
    await setup.boss.start();
    await ensureQueues(setup.boss, setup.kinds, setup.leaseSeconds, setup.sharedDatabase);
  };
  if (setup.sharedDatabase) await holdingStartLock(setup.sql, setup.schema, work);
  else await work();
}

async function holdingStartLock(sql: Sql, schema: string, work: () => Promise<void>): Promise<void> {
  const key = `service-mcp job queue start: ${schema}`;
  const connection = await sql.reserve();
  try {
    try {
      await connection`select pg_advisory_lock(hashtextextended(${key}, 0))`;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`waiting for another process to finish starting the job queue failed: ${message}`, {
        cause: error,
      });
    }
    try {
      await work();
    } finally {
      await connection`select pg_advisory_unlock(hashtextextended(${key}, 0))`;
    }
  } finally {
    connection.release();
  }
}

// Queue options are stored in the database; writing them at a start applies a changed policy. One read of every
// queue, then a write only where one is missing or changed: a start on an up-to-date database costs one query,
// not two per kind (seconds on PGlite). A job is inserted with the queue's expiry, which is its first lease; its
// worker renews it.
async function ensureQueues(
  boss: PgBoss,
  kinds: Iterable<JobKind>,
  leaseSeconds: number,
  sharedDatabase: boolean,
): Promise<void> {
  const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
  for (const kind of kinds) {
    const queue = queueDefinition(kind, leaseSeconds, sharedDatabase);
    const found = stored.get(kind.name);
    if (!found) await boss.createQueue(kind.name, queue);
    else if (Object.entries(queue).some(([key, value]) => found[key as keyof typeof queue] !== value))
      await boss.updateQueue(kind.name, queue);
  }
}

/** The options a kind's queue is stored with (and compared against at each start). */
export function queueDefinition(kind: JobKind, leaseSeconds: number, sharedDatabase: boolean) {
  return {
    name: kind.name,
    policy: kind.policy,
    retryLimit: kind.retry.limit,
    retryDelay: kind.retry.delaySeconds,
    retryBackoff: kind.retry.backoff,
    expireInSeconds: queueLeaseSeconds(kind, leaseSeconds, sharedDatabase),
  } satisfies PgBoss.Queue;
}
