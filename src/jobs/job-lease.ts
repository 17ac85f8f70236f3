// Leases: a fetched job is held for a short lease (the queue's expiry), which the worker renews
// while the job runs, up to the kind's longest run. A worker that dies (kill -9, a lost machine)
// stops renewing, so its jobs are retried about a lease after its death instead of after the
// kind's expiry (up to an hour). pg-boss 10 has no heartbeat of its own (`heartbeatSeconds` came in
// a later major), so renewal moves the job row's `expire_in`, the column pg-boss's expiry reads.
// Every worker also expires lapsed leases itself at each renewal (and at start), and lets a job
// whose lease lapsed run again at once: its kind's retry delay is for failures, not for a dead worker.
//
// The embedded database is opened by one process (its data folder is locked), so no other worker can take a
// job there and a short lease guards against nothing; and every statement waits its turn on its one backend,
// so under load a renewal could come too late and a live job be retried beside itself. There a job is held
// for its kind's whole run, and a dead process's jobs are found otherwise: at start, every job still active
// that began before this database was opened (`pg_postmaster_start_time()`) was the last process's, and is
// retried at once. The renewals still run, to see a job failed or cancelled elsewhere.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { JobKind } from './job-kind.ts';
import type { RunningJob } from './running-job.ts';

export interface LeaseOptions {
  boss: PgBoss;
  /** pg-boss's schema: the statements below address its job table. */
  schema: string;
  leaseSeconds: number;
  /** False for the embedded database: no other process can reach it (see above). */
  sharedDatabase: boolean;
  kinds: JobKind[];
  /** The jobs this process runs now. */
  running: () => Iterable<RunningJob>;
  log: Logger;
}

export interface LeaseKeeper {
  stop(): Promise<void>;
}

/** The message pg-boss's expiry writes as a job's output (plans.js, failJobsByTimeout). */
const EXPIRED_OUTPUT = JSON.stringify({ value: { message: 'job failed by timeout in active state' } });

/**
 * The lease a kind's jobs are inserted with and renewed to: never longer than the kind's longest run, and that
 * run whole where no other process can take the job.
 */
export const queueLeaseSeconds = (kind: JobKind, leaseSeconds: number, sharedDatabase: boolean): number =>
  sharedDatabase ? Math.min(leaseSeconds, kind.expireInSeconds) : kind.expireInSeconds;

/** Renews the running jobs' leases every third of a lease, and reclaims lapsed ones; the first reclaim runs now. */
export function keepLeases(options: LeaseOptions): LeaseKeeper {
  const { boss, schema, log } = options;
  const maxRun = new Map(options.kinds.map((kind) => [kind.name, kind.expireInSeconds]));
  const lease = new Map(
    options.kinds.map((kind) => [kind.name, queueLeaseSeconds(kind, options.leaseSeconds, options.sharedDatabase)]),
  );
  const db = boss.getDb();

  const renew = async (kind: string, jobs: RunningJob[]): Promise<void> => {
    // A retry keeps the job's id: the retry count tells this run from a later one of the same job.
    const { rows } = await db.executeSql(
      `update ${schema}.job j set expire_in = least(make_interval(secs => $5), now() - j.started_on + make_interval(secs => $4))
       from unnest($2::uuid[], $3::int[]) as mine (id, retry_count)
       where j.name = $1 and j.id = mine.id and j.retry_count = mine.retry_count and j.state = 'active'
       returning j.id, j.retry_count, extract(epoch from j.started_on + j.expire_in - now())::float8 as remaining`,
      [kind, jobs.map((job) => job.id), jobs.map((job) => job.retryCount), lease.get(kind), maxRun.get(kind)],
    );
    const remaining = new Map(
      (rows as { id: string; retry_count: number; remaining: number }[]).map((row) => [
        `${row.id}/${row.retry_count}`,
        row.remaining,
      ]),
    );
    for (const job of jobs) {
      const seconds = remaining.get(`${job.id}/${job.retryCount}`);
      if (seconds === undefined)
        job.lost('the job is no longer held by this worker (expired, failed or cancelled elsewhere)');
      else job.renewed(seconds * 1000);
    }
  };

  // The embedded database's jobs that were active before it opened: their process is gone. Their lease is made to
  // end when they started (not shortened: pg-boss's retry keeps it, and sets started_on again when it runs), so the
  // expiry that follows retries them.
  const endPreviousRuns = async (): Promise<void> => {
    await db.executeSql(
      `update ${schema}.job set started_on = started_on - expire_in
       where name = any($1::text[]) and state = 'active' and started_on < pg_postmaster_start_time()`,
      [[...maxRun.keys()]],
    );
  };

  const reclaim = async (): Promise<void> => {
    await boss.expire();
    await db.executeSql(
      `update ${schema}.job set start_after = now()
       where name = any($1::text[]) and state = 'retry' and start_after > now() and output = $2::jsonb`,
      [[...maxRun.keys()], EXPIRED_OUTPUT],
    );
  };

  const tick = async (): Promise<void> => {
    const byKind = new Map<string, RunningJob[]>();
    for (const job of options.running()) byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), job]);
    // A failed renewal is retried at the next tick; the job's own deadline stops it if none succeeds.
    for (const [kind, jobs] of byKind)
      await renew(kind, jobs).catch((err: unknown) => log.warn({ err, kind }, 'renewing job leases failed'));
    await reclaim().catch((err: unknown) => log.warn({ err }, 'reclaiming lapsed job leases failed'));
  };

  const first = async (): Promise<void> => {
    if (!options.sharedDatabase)
      await endPreviousRuns().catch((err: unknown) =>
        log.warn({ err }, 'retrying the jobs of the process before failed'),
      );
    await tick();
  };

  // One tick at a time: a slow database delays the next one instead of stacking them up.
  let current: Promise<void> | undefined = first().finally(() => (current = undefined));
  const timer = setInterval(
    () => {
      current ??= tick().finally(() => (current = undefined));
    },
    (options.leaseSeconds * 1000) / 3,
  );
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
