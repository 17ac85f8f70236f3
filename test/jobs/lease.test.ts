// Job leases: a job held by a live worker is renewed past its lease for as long as it runs (up to its
// kind's longest run), so two workers on one queue never run it twice; a job taken from its worker
// (failed elsewhere) is aborted there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { z } from 'zod';
import { defineJob, type JobKind } from '../../src/jobs/job-kind.ts';
import type { Jobs } from '../../src/jobs/jobs.ts';
import { eventually, finished, openJobsHarness, type JobsHarness } from './harness.ts';

const LEASE_SECONDS = 2;
const onPostgres = Boolean(process.env.DATABASE_URL);
// PGlite serves one process, whose one Jobs has one connection; a second Jobs there could interleave statements.
const workers = onPostgres ? 2 : 1;

let h: JobsHarness;
beforeEach(async () => {
  h = await openJobsHarness();
});
afterEach(async () => {
  await h.close();
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A kind that may run ten minutes, retried at once if it expires: a second run shows an expiry. */
function longKind(release: Promise<void>, runs: { count: number; aborts: unknown[] }) {
  return defineJob({
    name: 'test.long',
    payload: z.object({}),
    expireInSeconds: 600,
    retry: { limit: 3, delaySeconds: 0, backoff: false },
    handler: async (_payload, job) => {
      runs.count += 1;
      await new Promise<void>((resolve, reject) => {
        void release.then(resolve);
        job.signal.addEventListener('abort', () => {
          runs.aborts.push(job.signal.reason);
          reject(job.signal.reason);
        });
      });
    },
  });
}

/** The job while it runs: its state, retries, and how long ago its run started, in seconds. */
async function activeFor(
  jobs: Jobs,
  kind: JobKind,
  id: string,
): Promise<{ state: string; retryCount: number; seconds: number; heldFor: number }> {
  // Read through pg-boss's own connection: on PGlite a second client's statements could interleave with its.
  const job = await jobs.getJob(kind, id);
  if (!job) throw new Error(`job ${id} is gone`);
  return {
    state: job.state,
    retryCount: job.retryCount,
    seconds: job.startedOn ? (Date.now() - job.startedOn.getTime()) / 1000 : 0,
    heldFor: intervalSeconds(job.expireIn),
  };
}

/** A job's expire_in (its lease, counted from its start), as pg parses an interval. */
function intervalSeconds({ hours = 0, minutes = 0, seconds = 0, milliseconds = 0 }: PgBoss.PostgresInterval): number {
  return hours * 3600 + minutes * 60 + seconds + milliseconds / 1000;
}

// Each case waits out several real leases; a loaded machine also slows the harness's set-up.
describe('job leases', { timeout: 120_000 }, () => {
  it('keeps a live job running past many leases without a second run, however many workers fetch', async () => {
    const release = gate();
    const runs = { count: 0, aborts: [] as unknown[] };
    const kind = longKind(release.opened, runs);
    const jobs = await h.start([kind], { leaseSeconds: LEASE_SECONDS });
    for (let i = 1; i < workers; i++) await h.start([kind], { leaseSeconds: LEASE_SECONDS });
    const id = (await jobs.enqueue(kind, {})) as string;
    await eventually(
      () => activeFor(jobs, kind, id),
      (r) => r.state === 'active',
    );
    // Five leases, with pg-boss's expiry running every second (the harness) and workers fetching.
    const row = await eventually(
      () => activeFor(jobs, kind, id),
      (r) => r.state !== 'active' || r.seconds > 5 * LEASE_SECONDS,
    );
    expect(row).toMatchObject({ state: 'active', retryCount: 0 });
    // Renewed a lease at a time where other processes could take the job; on the embedded database, which no
    // other process opens, held for the kind's whole run, so no wait on its one backend can lapse it.
    if (onPostgres) expect(row.heldFor).toBeLessThanOrEqual(row.seconds + LEASE_SECONDS + 1);
    else expect(row.heldFor).toBe(600);
    release.open();
    const job = await eventually(() => jobs.getJob(kind, id), finished);
    expect(job).toMatchObject({ state: 'completed', retryCount: 0 });
    expect(runs).toEqual({ count: 1, aborts: [] });
  });

  it('aborts a running job whose lease was taken from it', async () => {
    const release = gate();
    const runs = { count: 0, aborts: [] as unknown[] };
    const kind = longKind(release.opened, runs);
    const jobs = await h.start([kind], { leaseSeconds: LEASE_SECONDS });
    const id = (await jobs.enqueue(kind, {})) as string;
    await eventually(
      () => activeFor(jobs, kind, id),
      (r) => r.state === 'active',
    );
    await jobs.failDeadJob(kind.name, id, 'presumed dead by the test');
    await eventually(
      async () => runs.aborts.length,
      (n) => n > 0,
    );
    expect(String(runs.aborts[0])).toMatch(/no longer held by this worker/);
    release.open();
  });
});
