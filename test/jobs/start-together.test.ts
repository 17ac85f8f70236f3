// Service instances and workers started at the same moment on one PostgreSQL database all come up, and
// pg-boss's queues exist once each with the kinds' settings: on a fresh database (every start creates the
// queues at once) and again on the existing one (every start updates them at once). In one process with
// separate connection pools, and as real `npm start` / `npm run worker` processes, as deployed.
// PostgreSQL only: the embedded database admits one process.
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { queueLeaseSeconds } from '../../src/jobs/job-lease.ts';
import { serviceJobs } from '../../src/service-jobs.ts';
import { createServices } from '../../src/services.ts';
import { spawnLineProcess, type LineProcess } from '../helpers/child-lines.ts';
import { createFreshDatabase, type FreshDatabase } from '../helpers/fresh-database.ts';
import { silentLog } from './harness.ts';

const adminUrl = process.env.DATABASE_URL;
const testArgon2 = { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 };
const mainEntry = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const workerEntry = fileURLToPath(new URL('../../src/worker.ts', import.meta.url));

let fresh: FreshDatabase | undefined;
let dataDir: string;
// Every instance of one deployment shares its token key; none writes one into the checkout.
const env = (url: string): Record<string, string> => ({
  DATABASE_URL: url,
  DATA_DIR: dataDir,
  TOKEN_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
  LOG_LEVEL: 'info',
});

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'start-together-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  await fresh?.drop();
  fresh = undefined;
});

interface QueueRow {
  name: string;
  policy: string;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  expire_seconds: number;
}

const expectedQueues = (leaseSeconds: number): QueueRow[] =>
  serviceJobs
    .map((kind) => ({
      name: kind.name,
      policy: kind.policy,
      retry_limit: kind.retry.limit,
      retry_delay: kind.retry.delaySeconds,
      retry_backoff: kind.retry.backoff,
      expire_seconds: queueLeaseSeconds(kind, leaseSeconds, true),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));

/** The service's queue rows, and how many partitions hang under pg-boss's job table: one per queue, its own cron queue too. */
async function readQueues(url: string): Promise<{ queues: QueueRow[]; partitions: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const queues = await sql<QueueRow[]>`
      select name, policy, retry_limit, retry_delay, retry_backoff, expire_seconds
      from pgboss.queue where name not like '\_\_pgboss\_\_%' order by name collate "C"`;
    const [{ partitions }] = await sql<{ partitions: number }[]>`
      select count(*)::int as partitions from pg_inherits where inhparent = 'pgboss.job'::regclass`;
    return { queues: [...queues], partitions };
  } finally {
    await sql.end();
  }
}

/** What main.ts and worker.ts do before they serve or work: migrate, build the services, start the jobs. */
async function startInstance(url: string, instanceEnv: Record<string, string>, work: boolean) {
  const db = await openDatabase({ databaseUrl: url, poolSize: 3 });
  try {
    await migrate(db.sql);
    const config = loadConfig(instanceEnv);
    const services = await createServices({ db, config, log: silentLog, argon2Params: testArgon2 });
    await services.startJobs({ work });
    return {
      async close() {
        await services.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Starts `count` instances at once (every other one also working); all started ones are closed before it returns. */
async function startTogether(count: number, instanceEnv: Record<string, string>): Promise<string[]> {
  const url = instanceEnv.DATABASE_URL;
  const results = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startInstance(url, instanceEnv, i % 2 === 0)),
  );
  const failures: string[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') await result.value.close();
    else failures.push(String(result.reason));
  }
  return failures;
}

describe.skipIf(!adminUrl)('instances and workers starting together (PostgreSQL; skipped without DATABASE_URL)', () => {
  it('starts five instances at once on a fresh database, then restarts them at once with a changed lease', async () => {
    fresh = await createFreshDatabase(adminUrl as string, 'jobs_start');
    const first = env(fresh.url);
    expect(await startTogether(5, first)).toEqual([]);
    expect(await readQueues(fresh.url)).toEqual({ queues: expectedQueues(30), partitions: serviceJobs.length + 1 });
    // Every start updates every queue: a changed setting reaches them all, with no start refused.
    expect(await startTogether(5, { ...first, JOB_LEASE_SECONDS: '12' })).toEqual([]);
    expect(await readQueues(fresh.url)).toEqual({ queues: expectedQueues(12), partitions: serviceJobs.length + 1 });
  });

  it('starts two `npm start` instances and two `npm run worker` processes at once on a fresh database', async () => {
    fresh = await createFreshDatabase(adminUrl as string, 'jobs_start');
    const shared = env(fresh.url);
    const instance = (): LineProcess =>
      spawnLineProcess(mainEntry, { ...shared, PORT: '0', JOBS_IN_PROCESS: 'false', OUTBOUND_ALLOW_PRIVATE: '' });
    const worker = (): LineProcess => spawnLineProcess(workerEntry, shared);
    const processes = [instance(), worker(), instance(), worker()];
    const logged = (msg: (text: string) => boolean) => (line: string) => {
      try {
        return msg((JSON.parse(line) as { msg: string }).msg);
      } catch {
        return false;
      }
    };
    try {
      const up = await Promise.allSettled(
        processes.map((child, i) =>
          child.line(logged(i % 2 === 0 ? (m) => m.startsWith('listening on ') : (m) => m === 'worker running')),
        ),
      );
      expect(up.filter((result) => result.status === 'rejected').map((result) => String(result.reason))).toEqual([]);
      expect(await readQueues(fresh.url)).toEqual({ queues: expectedQueues(30), partitions: serviceJobs.length + 1 });
      for (const child of processes) child.process.kill('SIGTERM');
      expect(await Promise.all(processes.map((child) => child.exited))).toEqual([0, 0, 0, 0]);
    } finally {
      for (const child of processes) if (child.process.exitCode === null) child.process.kill('SIGKILL');
      await Promise.all(processes.map((child) => child.exited));
    }
  });
});
