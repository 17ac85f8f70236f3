// Where the crash test's worker processes and the test meet: a PostgreSQL schema that the test's app
// keeps open beside them, or a PGlite data folder that one process at a time opens (the test's app
// between the workers' lives, a worker during its own).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/connection.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const appEnv = { OUTBOUND_ALLOW_PRIVATE: 'true' };

export interface CrashSite {
  /** What a worker process needs to reach the database and the job queue. */
  workerEnv: Record<string, string>;
  /** pg-boss's schema. */
  jobsSchema: string;
  /** Runs `use` with the service on the database; it queues jobs but runs none. */
  withApp<T>(use: (t: TestApp) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const tokenKey = `test:${randomBytes(32).toString('base64')}`;

export async function postgresSite(): Promise<CrashSite> {
  const t = await createTestApp({ jobs: 'enqueue', env: appEnv });
  const [{ search_path }] = await t.db.sql<{ search_path: string }[]>`show search_path`;
  const jobsSchema = t.jobsSchema as string;
  return {
    workerEnv: {
      IMPORT_DATABASE_URL: process.env.DATABASE_URL as string,
      IMPORT_SEARCH_PATH: search_path,
      IMPORT_JOBS_SCHEMA: jobsSchema,
      TOKEN_ENCRYPTION_KEY: tokenKey,
    },
    jobsSchema,
    withApp: (use) => use(t),
    close: () => t.close(),
  };
}

export async function pgliteSite(): Promise<CrashSite> {
  const dataDir = await mkdtemp(join(tmpdir(), 'import-crash-'));
  const jobsSchema = 'pgboss';
  return {
    workerEnv: { IMPORT_DATA_DIR: dataDir, IMPORT_JOBS_SCHEMA: jobsSchema, TOKEN_ENCRYPTION_KEY: tokenKey },
    jobsSchema,
    async withApp(use) {
      const db = await openDatabase({ dataDir });
      try {
        await migrate(db.sql);
        const t = await createTestApp({ db, jobs: 'enqueue', jobsSchema, env: appEnv });
        try {
          return await use(t);
        } finally {
          await t.close();
        }
      } finally {
        await db.close();
      }
    },
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
}
