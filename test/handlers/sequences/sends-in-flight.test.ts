// Several messages of one mailbox in flight at once (SEQUENCE_SENDS_IN_FLIGHT, with no pause between
// messages): each batch's checks and moves to `sending` are one statement each and its outcomes one
// transaction, yet two senders of one mailbox never hand one message to Gmail twice, the mailbox's cap holds
// across their batches, each outcome in a batch is recorded for its own message, and a sender killed with a
// batch in flight leaves exactly that batch `uncertain`, never retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDue, sendFromMailbox, sweepDeadSenders } from '../../../src/handlers/sequences/sender.ts';
import type { TestApp } from '../../helpers/app.ts';
import { startFakeGoogle, type FakeGoogle } from '../connectors/fake-google.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { openSendSite } from './fixtures/send-site.ts';
import { launchedOneStep, liveWorkspace, numberedLeads } from './sequence-fixtures.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const CAP = 25;

let t: TestApp;
let google: FakeGoogle;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    env: {
      ...google.env(),
      SEQUENCE_SEND_SPACING_MS: '0',
      SEQUENCE_CLAIM_BATCH: '8',
      SEQUENCE_SENDS_IN_FLIGHT: '8',
      SEQUENCE_MAILBOX_DAILY_CAP: String(CAP),
    },
  }));
  redirect = `${server.url}/oauth/callback`;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await google?.close();
});

const fromAccount = (account: string) => google.sent.filter((m) => m.parsed.from?.text === account);
const recipients = (account: string) => fromAccount(account).map((m) => (m.parsed.to as { text: string }).text);

async function statuses(sequenceId: string): Promise<Record<string, number>> {
  const rows = await t.db.sql<
    { status: string; n: number }[]
  >`select status, count(*)::int as n from sequence_messages where sequence_id = ${sequenceId} group by status`;
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describe('several sends of one mailbox in flight', () => {
  it('two senders of one mailbox sending batches in parallel hand each message to Gmail once and together stop at the cap', async () => {
    const account = 'parallel@gmail.example';
    const ws = await liveWorkspace(t, google, account, numberedLeads(40, 'par'));
    const sequenceId = await launchedOneStep(t, ws);
    google.meetSends(2);
    for (let pass = 0; pass < 3; pass++) {
      const mailboxes = await dispatchDue(t.deps);
      await Promise.all(mailboxes.flatMap((m) => [sendFromMailbox(t.deps, m), sendFromMailbox(t.deps, m)]));
    }
    expect(google.peakSendsInFlight).toBeGreaterThan(1);
    const sent = recipients(account);
    expect(sent).toHaveLength(CAP);
    expect(new Set(sent).size).toBe(CAP);
    expect(await statuses(sequenceId)).toEqual({ sent: CAP, scheduled: 40 - CAP });
    const contacted = await t.db.sql<{ data: { id: string; from: string; to: string } }[]>`
      select data from events where workspace_id = ${ws.owner.workspaceId} and type = 'lead.stage_changed'`;
    expect(contacted).toHaveLength(CAP);
    expect(contacted.every((e) => e.data.from === 'new' && e.data.to === 'contacted')).toBe(true);
    const enrollments = await t.db.sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from sequence_enrollments where sequence_id = ${sequenceId} group by status`;
    expect(Object.fromEntries(enrollments.map((e) => [e.status, e.n]))).toEqual({ completed: CAP, active: 40 - CAP });
  });

  it('records each outcome of a parallel batch for its own message: the refused ones fail, the rest are sent', async () => {
    const account = 'mixed-batch@gmail.example';
    const ws = await liveWorkspace(t, google, account, numberedLeads(6, 'mix'));
    const sequenceId = await launchedOneStep(t, ws);
    // The sender's first message goes alone, then the other five at once: one of those is refused too.
    google.refuseNextSends([
      { status: 400, message: 'Message rejected' },
      { status: 400, message: 'Message rejected' },
    ]);
    for (const m of await dispatchDue(t.deps)) await sendFromMailbox(t.deps, m);
    expect(await statuses(sequenceId)).toEqual({ sent: 4, failed: 2 });
    const rows = await t.db.sql<{ status: string; to_email: string; error_code: string | null }[]>`
      select status, to_email, error_code from sequence_messages where sequence_id = ${sequenceId}`;
    const delivered = recipients(account);
    expect(delivered.sort()).toEqual(
      rows
        .filter((r) => r.status === 'sent')
        .map((r) => r.to_email)
        .sort(),
    );
    expect(rows.filter((r) => r.status === 'failed').map((r) => r.error_code)).toEqual(['rejected', 'rejected']);
  });
});

describe.runIf(onPostgres)('a sender process killed with a batch in flight, on PostgreSQL', () => {
  it('leaves exactly the messages it had moved to sending uncertain, never retried, and a new sender sends the rest once each', async () => {
    const site = await openSendSite(30);
    try {
      const { google: gmail, sequenceId } = site;
      // Reservations of 5, all at once after the sender's first message: 1, 2-5, then 6-10 with the 6th's answer held.
      const hold = gmail.holdSendAnswer(5);
      const first = site.sender(5, 5);
      await hold.held;
      const at = await site.t.db.sql<{ status: string; n: number }[]>`
        select status, count(*)::int as n from sequence_messages where sequence_id = ${sequenceId} group by status`;
      expect(Object.fromEntries(at.map((r) => [r.status, r.n]))).toEqual({ sent: 5, sending: 5, scheduled: 20 });
      first.process.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      hold.release();

      expect(await sweepDeadSenders(site.t.deps, new Date(Date.now() + 5_000), 1)).toEqual({
        released: 0,
        uncertain: 5,
      });
      const second = site.sender(5, 5);
      expect(await second.exited).toBe(0);
      const end = await site.t.db.sql<{ status: string; n: number }[]>`
        select status, count(*)::int as n from sequence_messages where sequence_id = ${sequenceId} group by status`;
      expect(Object.fromEntries(end.map((r) => [r.status, r.n]))).toEqual({ sent: 25, uncertain: 5 });
      // Gmail got each message once: the five uncertain ones were sent by the dead sender, never again.
      const ids = gmail.sent.map((m) => /^<(msg_[0-9a-z]+)\./.exec(m.parsed.messageId ?? '')?.[1]);
      expect(ids.length).toBeLessThanOrEqual(30);
      expect(new Set(ids).size).toBe(ids.length);
      expect(await dispatchDue(site.t.deps)).toEqual([]);
    } finally {
      await site.close();
    }
  }, 180_000);
});
