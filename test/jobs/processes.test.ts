// Real worker processes: several share one queue, and a worker killed with SIGKILL in the middle
// of a job leaves it to be retried once its lease lapses (long before the kind's expiry and retry
// delay), with each checkpointed step done once. On PGlite, where one process at a time opens the
// data folder, the next process retries a killed one's jobs as soon as it starts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { spawnWorker, type ChildWorker } from './child-worker.ts';
import { openJobsHarness, type JobsHarness } from './harness.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const effectsTable = 'create table fixture_effects (job_id text not null, step int not null, pid int not null)';

let h: JobsHarness | undefined;
const children: ChildWorker[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  await h?.close();
  h = undefined;
});

async function postgresEnv(harness: JobsHarness): Promise<Record<string, string>> {
  const [{ search_path }] = await harness.db.sql`show search_path`;
  await harness.db.sql.unsafe(effectsTable);
  return {
    FIXTURE_DATABASE_URL: process.env.DATABASE_URL as string,
    FIXTURE_SEARCH_PATH: search_path,
    FIXTURE_BOSS_SCHEMA: harness.bossSchema,
  };
}

function worker(env: Record<string, string>): ChildWorker {
  const child = spawnWorker(env);
  children.push(child);
  return child;
}

// A kind that may run 15 minutes and waits 10 minutes before a retry, on a 2 s lease: only the lease
// can bring its job back within the test's timeout.
const leased = { FIXTURE_EXPIRE_SECONDS: '900', FIXTURE_RETRY_DELAY_SECONDS: '600', FIXTURE_LEASE_SECONDS: '2' };
const retryDelayMs = Number(leased.FIXTURE_RETRY_DELAY_SECONDS) * 1000;

async function killMidJobAndRestart(env: Record<string, string>, onKilled?: () => Promise<void>): Promise<string> {
  const first = worker({ ...env, FIXTURE_ENQUEUE: '1', FIXTURE_BLOCK_AT_STEP: '2' });
  const jobId = (await first.line('enqueued ')).slice('enqueued '.length);
  await first.line('blocked');
  first.process.kill('SIGKILL');
  await first.exited;
  await onKilled?.();
  const second = worker({ ...env, FIXTURE_EXIT_WHEN_IDLE: '1' });
  await second.line('idle');
  expect(await second.exited).toBe(0);
  return jobId;
}

describe.runIf(onPostgres)('job worker processes on PostgreSQL', () => {
  it('runs N jobs exactly once across two worker processes', async () => {
    h = await openJobsHarness();
    const env = await postgresEnv(h);
    const count = defineJob({ name: 'fixture.count', payload: z.object({ n: z.number() }), handler: async () => {} });
    const jobs = await h.start([count], { work: false });
    const workers = [worker({ ...env, FIXTURE_EXIT_WHEN_IDLE: '1' }), worker({ ...env, FIXTURE_EXIT_WHEN_IDLE: '1' })];
    await Promise.all(workers.map((w) => w.line('started')));
    const n = 300;
    // In one transaction: the workers exit once they see no open job, so jobs enqueued one by one could let them
    // finish the first few dozen and leave before the rest came (seen on a loaded CI machine: 56 of 300 ran).
    const { sql } = h.db;
    await sql.begin(async (tx) => {
      for (let i = 0; i < n; i += 1) await jobs.enqueue(count, { n: i }, { tx });
    });
    await Promise.all(workers.map((w) => w.line('idle')));
    const [row] = await h.db
      .sql`select count(*)::int as runs, count(distinct job_id)::int as jobs from fixture_effects`;
    expect(row).toEqual({ runs: n, jobs: n });
    const split = await h.db.sql`select pid, count(*)::int as runs from fixture_effects group by pid`;
    console.info('jobs per worker process:', split.map((s) => s.runs).join('/'));
  });

  it('finishes a job whose worker was killed mid-job exactly once after a restart', async () => {
    h = await openJobsHarness();
    const env = await postgresEnv(h);
    const jobId = await killMidJobAndRestart(env);
    const rows = await h.db
      .sql`select step, count(*)::int as n from fixture_effects where job_id = ${jobId} group by step order by step`;
    expect(rows).toEqual([
      { step: 1, n: 1 },
      { step: 2, n: 1 },
      { step: 3, n: 1 },
    ]);
    const [job] = await h.db.sql.unsafe(`select state, retry_count from ${h.bossSchema}.job where id = $1`, [jobId]);
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBeGreaterThanOrEqual(1);
  });

  it('retries the job of a killed worker once its lease lapses, long before the expiry and retry delay', async () => {
    h = await openJobsHarness();
    const env = await postgresEnv(h);
    let killedAt = 0;
    const jobId = await killMidJobAndRestart({ ...env, ...leased }, async () => {
      killedAt = Date.now();
    });
    const rows = await h.db
      .sql`select step, count(*)::int as n from fixture_effects where job_id = ${jobId} group by step order by step`;
    expect(rows).toEqual([
      { step: 1, n: 1 },
      { step: 2, n: 1 },
      { step: 3, n: 1 },
    ]);
    const [job] = await h.db.sql.unsafe(
      `select state, retry_count, started_on from ${h.bossSchema}.job where id = $1`,
      [jobId],
    );
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBe(1);
    // Not a speed bound: a retry that waited for the kind's expiry or retry delay would start 600 s or more
    // after the kill (and the test would time out long before); the lease brought it back before either.
    expect((job.started_on as Date).getTime() - killedAt).toBeLessThan(retryDelayMs);
  });
});

describe.runIf(!onPostgres)('job worker processes on PGlite with a data folder', () => {
  it('finishes a job whose worker was killed mid-job exactly once after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'jobs-kill-'));
    try {
      const setup = await openDatabase({ dataDir });
      await migrate(setup.sql);
      await setup.sql.unsafe(effectsTable);
      await setup.close();
      const jobId = await killMidJobAndRestart({ FIXTURE_DATA_DIR: dataDir, FIXTURE_BOSS_SCHEMA: 'pgboss' });
      const db = await openDatabase({ dataDir });
      try {
        const rows =
          await db.sql`select step, count(*)::int as n from fixture_effects where job_id = ${jobId} group by step order by step`;
        expect(rows).toEqual([
          { step: 1, n: 1 },
          { step: 2, n: 1 },
          { step: 3, n: 1 },
        ]);
        const [job] = await db.sql`select state from pgboss.job where id = ${jobId}`;
        expect(job.state).toBe('completed');
      } finally {
        await db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('retries the job of a process killed on the data folder as soon as the next opens it, whatever the lease', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'jobs-lease-'));
    try {
      const setup = await openDatabase({ dataDir });
      await migrate(setup.sql);
      await setup.sql.unsafe(effectsTable);
      await setup.close();
      let killedAt = 0;
      // A lease longer than the test's timeout: only the next process's start can bring the job back in time.
      const jobId = await killMidJobAndRestart(
        { FIXTURE_DATA_DIR: dataDir, FIXTURE_BOSS_SCHEMA: 'pgboss', ...leased, FIXTURE_LEASE_SECONDS: '300' },
        async () => {
          killedAt = Date.now();
        },
      );
      const db = await openDatabase({ dataDir });
      try {
        const rows =
          await db.sql`select step, count(*)::int as n from fixture_effects where job_id = ${jobId} group by step order by step`;
        expect(rows).toEqual([
          { step: 1, n: 1 },
          { step: 2, n: 1 },
          { step: 3, n: 1 },
        ]);
        const [job] = await db.sql`select state, retry_count, started_on from pgboss.job where id = ${jobId}`;
        expect(job.state).toBe('completed');
        // The one retry after the kill: the second process's run is its for the kind's whole run, so no load
        // on the one backend can lapse it and retry the job again.
        expect(job.retry_count).toBe(1);
        expect((job.started_on as Date).getTime() - killedAt).toBeLessThan(retryDelayMs);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
