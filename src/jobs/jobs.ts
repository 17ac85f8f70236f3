// Background jobs on the service's own database, with pg-boss 10: a registry of job kinds,
// enqueue (optionally inside the caller's transaction), cron schedules, and the worker lifecycle.
import { isDeepStrictEqual } from 'node:util';
import PgBoss from 'pg-boss';
import type { Sql, TransactionSql } from 'postgres';
import type { Logger } from 'pino';
import type { JobKind } from './job-kind.ts';
import { startJobWorker, type JobWorker } from './job-worker.ts';
import { startQueues } from './queue-setup.ts';
import { pgBossDb } from './transaction-adapter.ts';
import { refuseInsideTransaction } from '../db/transaction-guard.ts';

export interface EnqueueOptions {
  /** Insert with this connection or transaction: the job exists only if the caller's transaction commits. */
  tx?: Sql | TransactionSql;
  /** Do not run before this time (a Date) or before this many seconds from now. */
  startAfter?: Date | number;
  /** Overrides the kind's singletonKey(payload); deduplicates according to the kind's policy. */
  singletonKey?: string;
  /** A UUID for the job: a second enqueue with the same id is ignored (returns null) while the first is kept. */
  id?: string;
  priority?: number;
}

/** What handlers and jobs use to queue work: the part of Jobs that belongs in Deps. */
export interface JobQueue {
  /** Returns the job id, or null when the policy, singleton key or id deduplicated it. */
  enqueue<P>(kind: JobKind<P>, payload: P, options?: EnqueueOptions): Promise<string | null>;
  /** Enqueues `payload` on every match of a 5-field cron expression (one schedule per kind). */
  schedule<P>(kind: JobKind<P>, cron: string, payload: P, options?: { tz?: string }): Promise<void>;
  unschedule(kind: JobKind): Promise<void>;
  /** Starts the kind's next fetch now in this process: call after a transaction that enqueued with `tx` commits. */
  wake(kind: JobKind): void;
  /** A job's state (created, retry, active, completed, cancelled, failed), archived ones included; null when gone. */
  jobState(queue: string, id: string): Promise<string | null>;
  /**
   * Fails an active job whose worker is known dead, with `reason`: pg-boss retries it (after the kind's
   * retry delay) while retries remain, instead of waiting for its expiry.
   */
  failDeadJob(queue: string, id: string, reason: string): Promise<void>;
}

export interface JobsOptions {
  /** A URL `pg` understands (Database.connectionString); pg-boss keeps its own small pool on it. Needed by start(). */
  connectionString?: string;
  /** More `pg` pool options (Database.pgOptions: timeouts). */
  pgOptions?: Record<string, unknown>;
  /** The service's client, for job checkpoints (JobContext.once). */
  sql: Sql;
  log: Logger;
  /** pg-boss's tables live in this schema (default `pgboss`); created at start. */
  schema?: string;
  /** Connections of pg-boss's pool (default 2). PGlite has one session behind its socket: keep it small. */
  poolSize?: number;
  /** How often one instance (whichever gets there first) expires stuck jobs and archives old ones. */
  maintenanceIntervalSeconds?: number;
  /**
   * How long a running job stays its worker's without a renewal (default 30 s; renewed every third of
   * it): a dead worker's jobs are retried about this long after its death (src/jobs/job-lease.ts). On the
   * embedded database a job is held for its kind's whole run, and renewals every third of this see a job
   * failed or cancelled elsewhere.
   */
  leaseSeconds?: number;
  worker: { concurrency: number; pollIntervalMs: number };
  /**
   * Other processes may start on this database at the same moment (default true: PostgreSQL), so start()
   * sets pg-boss and the queues up one process at a time (src/jobs/queue-setup.ts). False for the embedded
   * database: one process opens it (its data folder is locked), and its one session is shared by every
   * connection, so a lock there would exclude nothing.
   */
  sharedDatabase?: boolean;
  /**
   * pg-boss's maintenance (expiry, archiving) and its cron, which sends the schedules' jobs (default true). The
   * build turns them off to set up the queues of a new data folder's template (src/first-start-template.ts),
   * into which no job may be sent.
   */
  background?: boolean;
}

/** `D`: what every handler receives at run time (the service's Deps), given to start(). */
export interface Jobs<D = undefined> extends JobQueue {
  /** Adds kinds before start(); a name registered twice throws. */
  register(...kinds: JobKind<unknown, D>[]): void;
  /**
   * Installs or migrates pg-boss's schema, creates the registered kinds' queues; with `work`, runs them,
   * handing each handler `deps`.
   */
  start(options: { work: boolean; deps: D }): Promise<void>;
  /**
   * Whether every registered kind's queue is stored already (one read with the service's client): a request may
   * then enqueue inside its transaction before start() has finished.
   */
  queuesExist(): Promise<boolean>;
  /** Stops taking jobs, lets running ones finish for up to `timeoutMs`, then closes pg-boss's pool; once. */
  stop(options: { timeoutMs: number }): Promise<void>;
  /** Reads one job (state, retry count, output: the last error of a failed job). */
  getJob(kind: JobKind, id: string): Promise<PgBoss.JobWithMetadata | null>;
}

// pg-boss refuses a polling interval below 500 ms.
const MIN_POLL_MS = 500;
export const DEFAULT_LEASE_SECONDS = 30;

export function createJobs<D = undefined>(options: JobsOptions): Jobs<D> {
  const { concurrency, pollIntervalMs } = options.worker;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('worker.concurrency must be an integer >= 1');
  if (!(pollIntervalMs >= MIN_POLL_MS)) throw new Error(`worker.pollIntervalMs must be at least ${MIN_POLL_MS}`);
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  // Whole seconds, as pg-boss counts expiry; below 2 s the renewal (every third) and its margin have no room.
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 2) throw new Error('leaseSeconds must be an integer >= 2');
  const schema = options.schema ?? 'pgboss';
  const sharedDatabase = options.sharedDatabase ?? true;
  const kinds = new Map<string, JobKind<unknown, D>>();
  // Made at start(): a service whose database has no connection string (a test's proxy) runs without jobs.
  const newBoss = (connectionString: string) =>
    new PgBoss({
      ...options.pgOptions,
      connectionString,
      schema,
      max: options.poolSize ?? 2,
      application_name: 'service-mcp jobs',
      supervise: options.background ?? true,
      schedule: options.background ?? true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      pollingIntervalSeconds: pollIntervalMs / 1000,
    });
  let bossInstance: PgBoss | undefined;
  const boss = (): PgBoss => {
    if (!bossInstance) throw new Error('the job queue is not started');
    return bossInstance;
  };
  // pg-boss's own pool reaches the same database: from inside one of the service's transactions it would
  // act apart from that transaction, and on the embedded database (one session) wait behind it for good.
  // Outside a transaction a call waits for a start under way (the service answers before its queue has started:
  // src/main.ts); inside one it cannot (on the embedded database the start's queries wait behind it), and it
  // needs no started pg-boss: the job is inserted with the transaction's connection.
  let startup: Promise<void> | undefined;
  const poolBoss = async (what: string): Promise<PgBoss> => {
    refuseInsideTransaction(options.sql, what);
    await startup;
    return boss();
  };
  let worker: JobWorker | undefined;
  let started = false;
  // The schedules as stored, read at start and kept up to date by schedule() and unschedule().
  const schedules = new Map<string, PgBoss.Schedule>();
  let stopped: Promise<void> | undefined;

  const registered = <P>(kind: JobKind<P>): JobKind<P> => {
    if (kinds.get(kind.name) !== kind) throw new Error(`job kind ${kind.name} is not registered`);
    return kind;
  };

  return {
    register(...added) {
      if (started) throw new Error('register job kinds before start()');
      for (const kind of added) {
        if (kinds.has(kind.name)) throw new Error(`job kind ${kind.name} is registered twice`);
        kinds.set(kind.name, kind);
      }
    },

    start({ work, deps }) {
      if (!options.connectionString)
        return Promise.reject(new Error('the job queue needs the database connection string'));
      const connectionString = options.connectionString;
      started = true;
      startup = (async () => {
        bossInstance = newBoss(connectionString);
        bossInstance.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
        await startQueues({
          boss: bossInstance,
          sql: options.sql,
          schema,
          kinds: kinds.values(),
          leaseSeconds,
          sharedDatabase,
        });
        // One read of every schedule, then a write only where one is missing or changed: a start on an up-to-date
        // database costs one query here, not one per schedule (seconds on PGlite).
        for (const schedule of await bossInstance.getSchedules()) schedules.set(schedule.name, schedule);
        if (work)
          worker = startJobWorker({
            boss: bossInstance,
            sql: options.sql,
            kinds: [...kinds.values()],
            deps,
            concurrency,
            pollIntervalMs,
            schema,
            leaseSeconds,
            sharedDatabase,
            log: options.log,
          });
      })();
      return startup;
    },

    async queuesExist() {
      try {
        const stored = await options.sql<{ name: string }[]>`select name from ${options.sql(schema)}.queue`;
        const names = new Set(stored.map((row) => row.name));
        return [...kinds.keys()].every((name) => names.has(name));
      } catch (error) {
        // A database pg-boss was never installed on: no schema (3F000) or no table (42P01).
        if (['3F000', '42P01'].includes((error as { code?: string }).code ?? '')) return false;
        throw error;
      }
    },

    // Idempotent: shutdown calls it at the signal and again before closing the database.
    stop({ timeoutMs }) {
      stopped ??= (async () => {
        // A start under way finishes first, so nothing it starts outlives the stop; its failure is start()'s to report.
        await startup?.catch(() => {});
        await worker?.stop(timeoutMs);
        if (bossInstance) await bossInstance.stop({ graceful: false, close: true });
      })();
      return stopped;
    },

    async enqueue(kind, payload, enqueueOptions = {}) {
      if (!started) throw new Error(`cannot enqueue ${kind.name}: the job queue is not started`);
      const { tx, startAfter, singletonKey, id, priority } = enqueueOptions;
      const data = registered(kind).payload.parse(payload) as object;
      const key = singletonKey ?? kind.singletonKey?.(payload);
      const sendOptions: PgBoss.SendOptions = {
        ...(tx && { db: pgBossDb(tx) }),
        ...(key && { singletonKey: key }),
        ...(id && { id }),
        ...(priority !== undefined && { priority }),
        ...(startAfter !== undefined && { startAfter }),
      };
      const jobId = await (tx ? boss() : await poolBoss(`enqueueing ${kind.name} without the transaction`)).send(
        kind.name,
        data,
        sendOptions,
      );
      // A job inserted in a caller's transaction is not visible until it commits; polling finds it.
      if (jobId && !tx && startAfter === undefined) worker?.wake(kind.name);
      return jobId;
    },

    async schedule(kind, cron, payload, scheduleOptions = {}) {
      const data = registered(kind).payload.parse(payload) as object;
      const options = { tz: scheduleOptions.tz ?? 'UTC' };
      const target = await poolBoss(`scheduling ${kind.name}`);
      if (sameSchedule(schedules.get(kind.name), cron, data, options.tz)) return;
      await target.schedule(kind.name, cron, data, options);
      schedules.set(kind.name, { name: kind.name, cron, data, options });
    },

    async unschedule(kind) {
      await (await poolBoss(`unscheduling ${kind.name}`)).unschedule(registered(kind).name);
      schedules.delete(kind.name);
    },

    wake(kind) {
      worker?.wake(registered(kind).name);
    },

    async jobState(queue, id) {
      const job = await (await poolBoss('reading a job')).getJobById(queue, id, { includeArchive: true });
      return job ? job.state : null;
    },

    async failDeadJob(queue, id, reason) {
      await (await poolBoss('failing a job')).fail(queue, id, { message: reason });
    },

    getJob: async (kind, id) => (await poolBoss('reading a job')).getJobById(registered(kind).name, id),
  };
}

// The stored row's timezone column is what `tz` set; its data went through JSON, as the new payload is compared.
function sameSchedule(stored: PgBoss.Schedule | undefined, cron: string, data: object, tz: string): boolean {
  if (!stored || stored.cron !== cron) return false;
  const storedTz = (stored as { timezone?: string }).timezone ?? stored.options?.tz;
  return storedTz === tz && isDeepStrictEqual(stored.data ?? {}, JSON.parse(JSON.stringify(data)));
}
