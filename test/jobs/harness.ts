// A migrated test database plus Jobs instances on a private pg-boss schema, dropped at close.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { Database } from '../../src/db/connection.ts';
import type { JobKind } from '../../src/jobs/job-kind.ts';
import { createJobs, type Jobs } from '../../src/jobs/jobs.ts';
import { createTestDatabase } from '../helpers/db.ts';

export interface JobsHarness {
  db: Database;
  /** pg-boss's schema for this test. */
  bossSchema: string;
  /** A started Jobs with these kinds; `work` runs them in this process. Stopped by close(). */
  start(kinds: JobKind[], options?: JobsHarnessOptions): Promise<Jobs>;
  /** The same Jobs, not started: the test starts it (and it is stopped by close()). */
  make(kinds: JobKind[], options?: JobsHarnessOptions): Jobs;
  close(): Promise<void>;
}

interface JobsHarnessOptions {
  work?: boolean;
  concurrency?: number;
  leaseSeconds?: number;
}

export const silentLog = pino({ level: process.env.TEST_LOG ?? 'silent' });

export async function openJobsHarness(): Promise<JobsHarness> {
  const db = await createTestDatabase();
  const bossSchema = `jobs_${randomBytes(5).toString('hex')}`;
  const started: Jobs[] = [];
  const make = (kinds: JobKind[], options: JobsHarnessOptions = {}): Jobs => {
    const jobs = createJobs({
      connectionString: db.connectionString,
      sql: db.sql,
      log: silentLog,
      schema: bossSchema,
      // As the service does: two pg connections on PGlite's one backend could interleave their statements.
      poolSize: db.kind === 'pglite' ? 1 : undefined,
      sharedDatabase: db.kind === 'postgres',
      maintenanceIntervalSeconds: 1,
      ...(options.leaseSeconds && { leaseSeconds: options.leaseSeconds }),
      worker: { concurrency: options.concurrency ?? 2, pollIntervalMs: 500 },
    });
    jobs.register(...kinds);
    started.push(jobs);
    return jobs;
  };
  return {
    db,
    bossSchema,
    make,
    async start(kinds, options = {}) {
      const jobs = make(kinds, options);
      await jobs.start({ work: options.work ?? true, deps: undefined });
      return jobs;
    },
    async close() {
      for (const jobs of started) await jobs.stop({ timeoutMs: 1000 });
      await db.sql.unsafe(`drop schema if exists ${bossSchema} cascade`);
      await db.close();
    },
  };
}

/** Polls until `read` returns a value `done` accepts; the test's own timeout bounds it. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const finished = (job: { state: string } | null): boolean =>
  job?.state === 'completed' || job?.state === 'failed';
