// Runs registered job kinds: one polling loop per kind fetches up to `concurrency` jobs with
// pg-boss (FOR UPDATE SKIP LOCKED, so any number of processes share the queue and each job runs
// once), runs each with an abort signal, and completes or fails it one by one.
import type { Sql } from 'postgres';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { JobKind } from './job-kind.ts';
import { keepLeases } from './job-lease.ts';
import { onceForJob } from './run-once.ts';
import { runningJob, type RunningJob } from './running-job.ts';

export interface JobWorkerOptions<D> {
  boss: PgBoss;
  sql: Sql;
  kinds: JobKind<unknown, D>[];
  /** Handed to every handler. */
  deps: D;
  /** Jobs of one kind this process runs at once. */
  concurrency: number;
  /** Pause between fetches while a kind's queue is empty (no LISTEN/NOTIFY over PGlite's socket). */
  pollIntervalMs: number;
  /** pg-boss's schema, where leases are renewed. */
  schema: string;
  /** How long a job stays this worker's without a renewal (see job-lease.ts). */
  leaseSeconds: number;
  /** False for the embedded database, where no other process can take a job (see job-lease.ts). */
  sharedDatabase: boolean;
  log: Logger;
}

export interface JobWorker {
  /** Ends the kind's pause now (a job was just enqueued by this process). */
  wake(kind: string): void;
  /**
   * Stops fetching, lets running jobs finish for up to `timeoutMs`, then aborts the rest and
   * fails them so they are retried elsewhere instead of waiting for their expiry.
   */
  stop(timeoutMs: number): Promise<void>;
}

// Recording the aborted runs' failures is a few queries; a dead database must not hold shutdown.
const FAIL_RECORDING_MS = 2_000;

export function startJobWorker<D>(options: JobWorkerOptions<D>): JobWorker {
  const { boss, log } = options;
  const running = new Set<RunningJob>();
  const wakers = new Map<string, () => void>();
  let stopping = false;

  const run = async (kind: JobKind<unknown, D>, job: PgBoss.JobWithMetadata): Promise<void> => {
    const current = runningJob(job);
    running.add(current);
    try {
      const payload = kind.payload.parse(job.data);
      const context = {
        id: job.id,
        kind: kind.name,
        attempt: job.retryCount + 1,
        signal: current.signal,
        once: onceForJob(options.sql, job.id),
      };
      await current.race(kind.handler(payload, context, options.deps));
      // Past the deadline pg-boss may already have handed the job to another worker: leave it to expiry.
      if (!current.expired) await boss.complete(kind.name, job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn({ job_id: job.id, kind: kind.name, attempt: job.retryCount + 1, err: message }, 'job failed');
      if (!current.expired)
        await boss
          .fail(kind.name, job.id, { message })
          .catch((e: unknown) => log.error({ err: e }, 'could not record a job failure'));
    } finally {
      current.dispose();
      running.delete(current);
    }
  };

  const loop = async (kind: JobKind<unknown, D>): Promise<void> => {
    const mine = new Set<Promise<void>>();
    while (!stopping) {
      if (mine.size >= options.concurrency) {
        await Promise.race(mine);
        continue;
      }
      let jobs: PgBoss.JobWithMetadata[] = [];
      try {
        jobs = await boss.fetch(kind.name, { batchSize: options.concurrency - mine.size, includeMetadata: true });
      } catch (error) {
        if (!stopping) log.error({ err: error, kind: kind.name }, 'fetching jobs failed');
      }
      for (const job of jobs) {
        const done: Promise<void> = run(kind, job).finally(() => mine.delete(done));
        mine.add(done);
      }
      if (jobs.length === 0 && !stopping) await pause(kind.name);
    }
    await Promise.all(mine);
  };

  const pause = (name: string): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, options.pollIntervalMs);
      function done(): void {
        clearTimeout(timer);
        wakers.delete(name);
        resolve();
      }
      wakers.set(name, done);
    });

  const loops = options.kinds.map((kind) => loop(kind));
  const leases = keepLeases({
    boss,
    schema: options.schema,
    leaseSeconds: options.leaseSeconds,
    sharedDatabase: options.sharedDatabase,
    kinds: options.kinds,
    running: () => running,
    log,
  });

  const drain = async (timeoutMs: number): Promise<void> => {
    const finished = Promise.all(loops);
    if (await settlesWithin(finished, timeoutMs)) return;
    const left = [...running];
    log.warn({ running_jobs: left.length }, 'jobs still running at shutdown; aborting them');
    // Each aborted run records its failure (so it is retried soon, not after its lease); the
    // handler itself may go on until the process exits, which its checkpoints make harmless.
    for (const job of left) job.abort(new Error('worker shut down while the job was running'));
    await settlesWithin(finished, FAIL_RECORDING_MS);
  };

  return {
    wake: (kind) => wakers.get(kind)?.(),
    async stop(timeoutMs) {
      stopping = true;
      for (const wake of [...wakers.values()]) wake();
      // Leases are renewed while running jobs finish, so a slow finish is not taken for a dead worker.
      await drain(timeoutMs);
      await settlesWithin(leases.stop(), FAIL_RECORDING_MS);
    },
  };
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
