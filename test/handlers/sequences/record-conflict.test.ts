// Recording what Gmail answered is run again when the database rolls its transaction back for meeting another (a
// deadlock with an import updating the same leads): the messages are gone by then, so giving up would leave them
// `uncertain`, stop their leads' enrollments, and leave a bounced address unsuppressed. A trigger raises the
// deadlock's SQLSTATE on the first statements of the record, on either database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { conflictTrigger } from '../../helpers/conflict-trigger.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { drain, launchedToEveryLead, readyWorkspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  // The sandbox consent page is fetched over HTTP, as a person's browser would.
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** Drains the queue while a trigger fails the first two rows `event` writes to `table` with a deadlock; both raised. */
async function drainThroughDeadlocks(trigger: { name: string; event: string; table: string; when?: string }) {
  const conflicts = await conflictTrigger(t.db.sql, { ...trigger, sqlstate: '40P01', times: 2 });
  try {
    await drain(t);
  } finally {
    await conflicts.end();
  }
  expect(await conflicts.raised()).toBe(2);
}

describe('recording what Gmail answered', () => {
  it('runs the recording again after a deadlock: every message sent, every enrollment on to step 2, none uncertain', async () => {
    const ws = await readyWorkspace(t);
    const sequenceId = await launchedToEveryLead(t, ws);
    // The enrollment moved on to step 2: the record of `sent`.
    await drainThroughDeadlocks({
      name: 'advance_conflict',
      event: 'update',
      table: 'sequence_enrollments',
      when: 'new.next_step is distinct from old.next_step',
    });
    const messages = await t.db.sql<{ status: string; step: number }[]>`
      select status, step from sequence_messages where sequence_id = ${sequenceId} order by step`;
    expect(messages).toEqual(ws.leads.map(() => ({ status: 'sent', step: 1 })));
    const enrollments = await t.db.sql<{ status: string; next_step: number }[]>`
      select status, next_step from sequence_enrollments where sequence_id = ${sequenceId}`;
    expect(enrollments).toEqual(ws.leads.map(() => ({ status: 'active', next_step: 2 })));
  });

  it('runs the record of a bounce again after a deadlock: the message failed, the lead bounced and suppressed', async () => {
    // The sandbox mailbox refuses an address at a reserved .invalid domain, as Gmail refuses a bad recipient.
    const ws = await readyWorkspace(t, [
      { email: 'ghost@nowhere.invalid', first_name: 'Ghost', company: 'None', custom_fields: { plan: 'x' } },
    ]);
    const sequenceId = await launchedToEveryLead(t, ws);
    await drainThroughDeadlocks({ name: 'suppress_conflict', event: 'insert', table: 'lead_suppressions' });
    const [message] = await t.db.sql<{ status: string; error_code: string }[]>`
      select status, error_code from sequence_messages where sequence_id = ${sequenceId}`;
    expect(message).toEqual({ status: 'failed', error_code: 'bounced' });
    const [lead] = await t.db.sql<{ status: string }[]>`select status from leads where id = ${ws.leads[0].id}`;
    expect(lead.status).toBe('bounced');
    const suppressed = await t.db.sql`
      select 1 from lead_suppressions where workspace_id = ${ws.owner.workspaceId} and reason = 'bounced'`;
    expect(suppressed).toHaveLength(1);
  });
});
