// A run's lease lost after its handler has returned (the renewal racing the worker's own completion) withholds the
// outcome without aborting a handler that is done; lost while the handler runs, it aborts it.
import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { runningJob } from '../../src/jobs/running-job.ts';

const job = { id: 'job-1', name: 'test.kind', retryCount: 0, expireInSeconds: 60 } as unknown as PgBoss.JobWithMetadata;

describe('runningJob', () => {
  it('aborts the handler when the lease is lost while it runs', async () => {
    const run = runningJob(job);
    const work = run.race(new Promise<void>(() => {}));
    run.lost('taken elsewhere');
    await expect(work).rejects.toThrow('taken elsewhere');
    expect([run.signal.aborted, run.expired]).toEqual([true, true]);
    run.dispose();
  });

  it('withholds the outcome but aborts nothing when the lease is lost after the handler returned', async () => {
    const run = runningJob(job);
    await run.race(Promise.resolve());
    run.lost('completed meanwhile');
    expect([run.signal.aborted, run.expired]).toEqual([false, true]);
    run.renewed(60_000);
    expect(run.expired).toBe(true);
    run.dispose();
  });
});
