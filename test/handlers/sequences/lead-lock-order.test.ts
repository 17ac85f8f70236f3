// Lock order between a send being recorded and the lead's own changes (PostgreSQL, where they run on two
// connections at once). recordSentMany (send-record.ts) updates the message, then the lead (contacted), then the
// enrollment (its next step). An unsubscribe that stopped the lead's enrollments before it updated the lead waited
// for the lead while holding the enrollment the send waited for: PostgreSQL killed one with `deadlock detected`,
// and the recipient's one-click POST got a 500 (CI, the nginx topology's agent run). Each of these changes now
// takes the lead first. The test plays the send's transaction in SQL, in that order, around the real request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReservedSql } from 'postgres';
import type { TestApp } from '../../helpers/app.ts';
import { listenLiveAgainstFakeGoogle, type LiveService } from '../connectors/live-service.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import { drain, json, launchedToEveryLead, liveWorkspace, type Workspace } from './sequence-fixtures.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let t: TestApp;
let google: FakeGoogle;
let live: LiveService;
const now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  if (!onPostgres) return;
  live = await listenLiveAgainstFakeGoogle({ now: () => now });
  ({ app: t, google } = live);
});
afterAll(async () => {
  await live?.close();
});

/** A workspace whose one lead got the first of two steps: its enrollment is active, waiting for step 2. */
async function sentFirstStep(account: string, email: string): Promise<{ ws: Workspace; leadId: string; link: string }> {
  const ws = await liveWorkspace(t, google, account, [
    { email, first_name: 'Ann', company: 'Acme', custom_fields: { plan: 'pro' } },
  ]);
  await launchedToEveryLead(t, ws);
  await drain(t);
  const [sent] = google.sent.filter((m) => (m.parsed.to as { text: string }).text === email);
  const raw = Buffer.from(sent.raw, 'base64url').toString('utf8');
  const link = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(raw)?.[1] as string;
  return { ws, leadId: ws.leads[0].id, link };
}

/**
 * Runs `change` while another transaction holds the message and the lead as recordSentMany does between its lead
 * and enrollment updates; once `change` waits on that transaction, it updates the lead's enrollment and commits.
 */
async function duringARecordedSend(ws: Workspace, leadId: string, change: () => Promise<Response>): Promise<Response> {
  const workspaceId = ws.owner.workspaceId;
  const send: ReservedSql = await t.db.sql.reserve();
  let open = false;
  try {
    await send`begin`;
    open = true;
    const [{ pid }] = await send<{ pid: number }[]>`select pg_backend_pid() as pid`;
    await send`update sequence_messages set updated_at = now()
      where workspace_id = ${workspaceId} and lead_id = ${leadId} and status = 'sent'`;
    await send`update leads set updated_at = now() where workspace_id = ${workspaceId} and id = ${leadId}`;
    const answered = change();
    // Settled by the return below, or left to fail the test when the wait goes wrong: never unhandled.
    answered.catch(() => {});
    // The change is waiting for this transaction: for the lead or the message (or, in the old order, for one of
    // them while it held the enrollment).
    for (let waited = 0; ; waited += 50) {
      const [{ n }] = await t.db.sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`;
      if (n > 0) break;
      if (waited > 20_000) throw new Error('the change never waited for the send');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await send`update sequence_enrollments set updated_at = now()
      where workspace_id = ${workspaceId} and lead_id = ${leadId}`;
    await send`commit`;
    open = false;
    return await answered;
  } finally {
    // A connection goes back to the pool with no transaction, and no lock, left open.
    if (open) await send`rollback`.catch(() => {});
    send.release();
  }
}

const enrollmentOf = async (ws: Workspace, leadId: string) =>
  (
    await t.db.sql<{ status: string; stop_reason: string | null }[]>`
    select status, stop_reason from sequence_enrollments where workspace_id = ${ws.owner.workspaceId} and lead_id = ${leadId}`
  )[0];

describe.runIf(onPostgres)('a lead changed while a send to it is being recorded (PostgreSQL)', () => {
  it("the recipient's one-click unsubscribe waits for the send, then unsubscribes (200, no deadlock)", async () => {
    const { ws, leadId, link } = await sentFirstStep('lock-one-click@gmail.example', 'ann.oneclick@example.com');
    const res = await duringARecordedSend(ws, leadId, () =>
      fetch(link, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    expect(res.status).toBe(200);
    expect((await json(t.request(`/api/v1/leads/${leadId}`, { token: ws.owner.token }))).status).toBe('unsubscribed');
    expect(await enrollmentOf(ws, leadId)).toEqual({ status: 'stopped', stop_reason: 'unsubscribed' });
  });

  it('unsubscribe_lead waits for the send, then unsubscribes (200, no deadlock)', async () => {
    const { ws, leadId } = await sentFirstStep('lock-api@gmail.example', 'ann.api@example.com');
    const res = await duringARecordedSend(ws, leadId, () =>
      t.request(`/api/v1/leads/${leadId}/unsubscribe`, { method: 'POST', token: ws.owner.token }),
    );
    expect(res.status).toBe(200);
    expect(await enrollmentOf(ws, leadId)).toEqual({ status: 'stopped', stop_reason: 'unsubscribed' });
  });

  it('delete_lead waits for the send, then deletes (200, no deadlock)', async () => {
    const { ws, leadId } = await sentFirstStep('lock-delete@gmail.example', 'ann.delete@example.com');
    const res = await duringARecordedSend(ws, leadId, () =>
      t.request(`/api/v1/leads/${leadId}`, { method: 'DELETE', token: ws.owner.token }),
    );
    expect(res.status).toBe(200);
    expect((await t.request(`/api/v1/leads/${leadId}`, { token: ws.owner.token })).status).toBe(404);
  });
});
