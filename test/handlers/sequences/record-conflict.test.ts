// Recording what Gmail took is run again when the database rolls its transaction back for meeting another (a
// deadlock with an import updating the same leads): the messages are gone by then, so giving up would leave them
// `uncertain` and stop their leads' enrollments. A trigger raises the deadlock's SQLSTATE once, on the first
// enrollment the recording moves on to its next step, on either database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
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

/** Makes the first `times` statements that move an enrollment to its next step fail as a deadlock victim does. */
async function deadlockOnAdvance(times: number): Promise<{ raised(): Promise<number> }> {
  // A sequence's value is not rolled back with the failing transaction, so it counts the raises.
  await t.db.sql.unsafe('create sequence if not exists advance_conflicts');
  await t.db.sql.unsafe(`
    create or replace function advance_conflict() returns trigger language plpgsql as $$
    begin
      if new.next_step is distinct from old.next_step and nextval('advance_conflicts') <= ${times} then
        raise exception 'deadlock detected (raised by the test)' using errcode = '40P01';
      end if;
      return new;
    end $$`);
  await t.db.sql.unsafe(
    'create trigger advance_conflict before update on sequence_enrollments for each row execute function advance_conflict()',
  );
  return {
    async raised() {
      const [row] = await t.db.sql<{ n: number }[]>`select last_value::int as n from advance_conflicts`;
      return Math.min(row.n, times);
    },
  };
}

describe('recording sent messages', () => {
  it('runs the recording again after a deadlock: every message sent, every enrollment on to step 2, none uncertain', async () => {
    const ws = await readyWorkspace(t);
    const sequenceId = await launchedToEveryLead(t, ws);
    const conflicts = await deadlockOnAdvance(2);
    try {
      await drain(t);
    } finally {
      await t.db.sql.unsafe('drop trigger advance_conflict on sequence_enrollments');
    }
    expect(await conflicts.raised()).toBe(2);
    const messages = await t.db.sql<{ status: string; step: number }[]>`
      select status, step from sequence_messages where sequence_id = ${sequenceId} order by step`;
    expect(messages).toEqual(ws.leads.map(() => ({ status: 'sent', step: 1 })));
    const enrollments = await t.db.sql<{ status: string; next_step: number }[]>`
      select status, next_step from sequence_enrollments where sequence_id = ${sequenceId}`;
    expect(enrollments).toEqual(ws.leads.map(() => ({ status: 'active', next_step: 2 })));
  });
});
