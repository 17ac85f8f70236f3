// The service's own recurring jobs: both sweeps are scheduled, and the idempotency sweep run as a job
// deletes expired records and keeps live ones.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleServiceJobs, serviceJobKinds } from '../../src/jobs/kinds.ts';
import { eventually, finished, openJobsHarness, type JobsHarness } from './harness.ts';

let h: JobsHarness;

async function insertRecord(key: string, expiresAt: Date): Promise<void> {
  const created = new Date(expiresAt.getTime() - 24 * 3600 * 1000);
  await h.db.sql`
    insert into idempotency_keys (scope, key, request_hash, state, claim, created_at, expires_at, locked_until)
    values ('ws_test', ${key}, 'hash', 'in_progress', 'claim', ${created}, ${expiresAt}, ${created})`;
}

describe('service job kinds', () => {
  beforeEach(async () => {
    h = await openJobsHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('schedules the checkpoint and idempotency sweeps', async () => {
    const kinds = serviceJobKinds({ sql: h.db.sql });
    const jobs = await h.start(Object.values(kinds), { work: false });
    await scheduleServiceJobs(jobs, kinds);
    const rows = await h.db.sql.unsafe(`select name, cron from ${h.bossSchema}.schedule order by name`);
    expect(rows.map((r) => [r.name, r.cron])).toEqual([
      ['http.sweep-idempotency-keys', '23 * * * *'],
      ['jobs.sweep-effects', '17 3 * * *'],
    ]);
  });

  it('deletes expired idempotency records when the sweep runs, and keeps live ones', async () => {
    await insertRecord('expired', new Date(Date.now() - 60_000));
    await insertRecord('live', new Date(Date.now() + 3600_000));
    const kinds = serviceJobKinds({ sql: h.db.sql });
    const jobs = await h.start([kinds.sweepIdempotency]);
    const id = await jobs.enqueue(kinds.sweepIdempotency, {});
    const job = await eventually(() => jobs.getJob(kinds.sweepIdempotency, id as string), finished);
    expect(job?.state).toBe('completed');
    const left = await h.db.sql<{ key: string }[]>`select key from idempotency_keys where scope = 'ws_test' order by key`;
    expect(left.map((r) => r.key)).toEqual(['live']);
  });
});
