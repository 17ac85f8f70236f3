// The service's own recurring jobs, as createServices registers them: the sweeps are scheduled, and
// the idempotency sweep run as a job deletes expired records and keeps live ones.
import { afterEach, describe, expect, it } from 'vitest';
import { sweepIdempotencyKeysJob } from '../../src/http/sweep-idempotency-keys.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { eventually, finished } from './harness.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function insertRecord(app: TestApp, key: string, expiresAt: Date): Promise<void> {
  const created = new Date(expiresAt.getTime() - 24 * 3600 * 1000);
  await app.db.sql`
    insert into idempotency_keys (scope, key, request_hash, state, claim, created_at, expires_at, locked_until)
    values ('ws_test', ${key}, 'hash', 'in_progress', 'claim', ${created}, ${expiresAt}, ${created})`;
}

describe('service job kinds', () => {
  it('schedules the checkpoint, idempotency, lead-export and stale-operation sweeps, the sequence dispatcher and the agent-run sweep', async () => {
    t = await createTestApp({ jobs: 'enqueue' });
    const rows = await t.db.sql.unsafe(`select name, cron from ${t.jobsSchema}.schedule order by name`);
    expect(rows.map((r) => [r.name, r.cron])).toEqual([
      ['ads.sync', '*/5 * * * *'],
      ['agents.sweep', '* * * * *'],
      ['blogs.publish-due', '* * * * *'],
      ['http.sweep-idempotency-keys', '23 * * * *'],
      ['jobs.sweep-effects', '17 3 * * *'],
      ['leads.sweep-exports', '41 * * * *'],
      ['mailbox.sync-sweep', '* * * * *'],
      ['operations.sweep-stale', '* * * * *'],
      ['replies.sweep-stale-sends', '* * * * *'],
      ['sequences.dispatch', '* * * * *'],
      ['webinars.send-mail', '* * * * *'],
    ]);
  });

  it('deletes expired idempotency records when the sweep runs, and keeps live ones', async () => {
    t = await createTestApp({ jobs: 'work' });
    const app = t;
    await insertRecord(app, 'expired', new Date(Date.now() - 60_000));
    await insertRecord(app, 'live', new Date(Date.now() + 3600_000));
    const kind = sweepIdempotencyKeysJob;
    const id = await app.deps.jobs.enqueue(kind, {});
    const job = await eventually(
      () => app.services.deps.jobs.jobState(kind.name, id as string),
      (state) => finished(state ? { state } : null),
    );
    expect(job).toBe('completed');
    const left = await app.db.sql<
      { key: string }[]
    >`select key from idempotency_keys where scope = 'ws_test' order by key`;
    expect(left.map((r) => r.key)).toEqual(['live']);
  });
});
