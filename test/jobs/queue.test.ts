import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { createJobs } from '../../src/jobs/jobs.ts';
import { PoolInTransactionError } from '../../src/db/transaction-guard.ts';
import { eventually, finished, openJobsHarness, silentLog, type JobsHarness } from './harness.ts';

let h: JobsHarness;

const payload = z.object({ n: z.number() });

function recorder(
  name: string,
  behaviour: (attempt: number) => Promise<void> = async () => {},
  retry = { limit: 0, delaySeconds: 0, backoff: false },
) {
  const seen: { n: number; attempt: number }[] = [];
  const kind = defineJob({
    name,
    payload,
    retry,
    handler: async ({ n }, job) => {
      seen.push({ n, attempt: job.attempt });
      await behaviour(job.attempt);
    },
  });
  return { kind, seen };
}

describe('jobs queue', () => {
  beforeEach(async () => {
    h = await openJobsHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('runs an enqueued job to completion with its payload', async () => {
    const { kind, seen } = recorder('test.run');
    const jobs = await h.start([kind]);
    const id = await jobs.enqueue(kind, { n: 7 });
    const job = await eventually(() => jobs.getJob(kind, id as string), finished);
    expect(job?.state).toBe('completed');
    expect(seen).toEqual([{ n: 7, attempt: 1 }]);
  });

  it('retries a failed job and completes it on a later attempt', async () => {
    const { kind, seen } = recorder(
      'test.flaky',
      async (attempt) => {
        if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
      },
      { limit: 3, delaySeconds: 0, backoff: false },
    );
    const jobs = await h.start([kind]);
    const id = await jobs.enqueue(kind, { n: 1 });
    const job = await eventually(() => jobs.getJob(kind, id as string), finished);
    expect(job?.state).toBe('completed');
    expect(seen.map((s) => s.attempt)).toEqual([1, 2, 3]);
  });

  it('marks a job failed with its last error once retries are exhausted', async () => {
    const { kind, seen } = recorder(
      'test.doomed',
      async (attempt) => {
        throw new Error(`broken on attempt ${attempt}`);
      },
      { limit: 1, delaySeconds: 0, backoff: true },
    );
    const jobs = await h.start([kind]);
    const id = await jobs.enqueue(kind, { n: 1 });
    const job = await eventually(() => jobs.getJob(kind, id as string), finished);
    expect(job?.state).toBe('failed');
    expect(job?.output).toEqual({ message: 'broken on attempt 2' });
    expect(seen).toHaveLength(2);
  });

  it('does not start a job before its startAfter time', async () => {
    const { kind, seen } = recorder('test.later');
    const jobs = await h.start([kind]);
    const later = new Date(Date.now() + 3_600_000);
    const farId = await jobs.enqueue(kind, { n: 1 }, { startAfter: later });
    const soon = new Date(Date.now() + 1_500);
    const soonId = await jobs.enqueue(kind, { n: 2 }, { startAfter: soon });
    const ran = await eventually(() => jobs.getJob(kind, soonId as string), finished);
    expect(ran?.startedOn.getTime()).toBeGreaterThanOrEqual(soon.getTime());
    const far = await jobs.getJob(kind, farId as string);
    expect(far?.state).toBe('created');
    expect(far?.startAfter.getTime()).toBe(later.getTime());
    expect(seen).toEqual([{ n: 2, attempt: 1 }]);
  });

  it('registers a cron schedule with its payload, replacing the previous one', async () => {
    const { kind } = recorder('test.cron');
    const jobs = await h.start([kind], { work: false });
    await jobs.schedule(kind, '*/5 * * * *', { n: 1 });
    await jobs.schedule(kind, '0 4 * * *', { n: 2 });
    const rows = await h.db.sql.unsafe(`select name, cron, data, timezone from ${h.bossSchema}.schedule`);
    expect(rows).toEqual([{ name: 'test.cron', cron: '0 4 * * *', data: { n: 2 }, timezone: 'UTC' }]);
    await jobs.unschedule(kind);
    expect(await h.db.sql.unsafe(`select 1 from ${h.bossSchema}.schedule`)).toHaveLength(0);
  });

  it('enqueues inside the caller transaction: kept on commit, gone on rollback', async () => {
    const { kind } = recorder('test.tx');
    const jobs = await h.start([kind], { work: false });
    const committed = await h.db.sql.begin((tx) => jobs.enqueue(kind, { n: 1 }, { tx }));
    let rolledBack: string | null = null;
    await h.db.sql
      .begin(async (tx) => {
        rolledBack = await jobs.enqueue(kind, { n: 2 }, { tx });
        throw new Error('undo');
      })
      .catch(() => {});
    expect((await jobs.getJob(kind, committed as string))?.state).toBe('created');
    expect(rolledBack).not.toBeNull();
    expect(await jobs.getJob(kind, rolledBack as unknown as string)).toBeNull();
  });

  it("refuses to enqueue from inside the service's transaction without it, and queues nothing", async () => {
    const { kind } = recorder('test.outside');
    const jobs = await h.start([kind], { work: false });
    const attempt = h.db.sql.begin(async (tx) => {
      await tx`select 1`;
      await jobs.enqueue(kind, { n: 1 });
    });
    await expect(attempt).rejects.toThrow(PoolInTransactionError);
    expect(await h.db.sql.unsafe(`select 1 from ${h.bossSchema}.job where name = 'test.outside'`)).toHaveLength(0);
  });

  it('keeps one queued job per singleton key under the short policy', async () => {
    const kind = defineJob({
      name: 'test.short',
      payload,
      policy: 'short',
      singletonKey: ({ n }) => `n-${n}`,
      handler: async () => {},
    });
    const jobs = await h.start([kind], { work: false });
    expect(await jobs.enqueue(kind, { n: 1 })).not.toBeNull();
    expect(await jobs.enqueue(kind, { n: 1 })).toBeNull();
    expect(await jobs.enqueue(kind, { n: 2 })).not.toBeNull();
  });

  it('refuses a payload its kind does not accept, and a kind that is not registered', async () => {
    const { kind } = recorder('test.strict');
    const { kind: stranger } = recorder('test.stranger');
    const jobs = await h.start([kind], { work: false });
    await expect(jobs.enqueue(kind, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
    await expect(jobs.enqueue(stranger, { n: 1 })).rejects.toThrow(/not registered/);
  });
});

describe('createJobs and defineJob', () => {
  const base = { connectionString: 'postgres://x@localhost/x', sql: undefined as never, log: silentLog };
  it.each([
    ['a poll interval pg-boss refuses', { concurrency: 1, pollIntervalMs: 100 }, /pollIntervalMs/],
    ['no concurrency', { concurrency: 0, pollIntervalMs: 1000 }, /concurrency/],
  ])('throws at construction on %s', (_name, worker, error) => {
    expect(() => createJobs({ ...base, worker })).toThrow(error);
  });

  it('throws on a malformed kind name or expiry, and on a kind registered twice', () => {
    const handler = async (): Promise<void> => {};
    expect(() => defineJob({ name: 'Bad Name', payload, handler })).toThrow(/name/);
    expect(() => defineJob({ name: 'ok', payload, handler, expireInSeconds: 1 })).toThrow(/expireInSeconds/);
    const jobs = createJobs({ ...base, worker: { concurrency: 1, pollIntervalMs: 1000 } });
    const kind = defineJob({ name: 'twice', payload, handler });
    jobs.register(kind);
    expect(() => jobs.register(kind)).toThrow(/twice/);
  });
});
