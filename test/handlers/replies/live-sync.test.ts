// End to end in live mode against the strict fake Google: the lead's answer is delivered into the
// fake's mailbox, the sync reads it through Gmail's API (history, messages.get) and the sequence stops;
// and the sender's pre-send thread check (threads.get) stops a follow-up claimed before the answer came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenLiveAgainstFakeGoogle, type LiveService } from '../connectors/live-service.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import { approvedSequence, drain, json, relogin, twoSteps, type Workspace } from '../sequences/sequence-fixtures.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import { claimForMailbox, dispatchDue } from '../../../src/handlers/sequences/sender.ts';
import { sendClaimedMessage } from '../../../src/handlers/sequences/send-message.ts';
import { findConnector } from '../../../src/handlers/connectors/connectors-data.ts';

let t: TestApp;
let google: FakeGoogle;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');
const DAY = 86_400_000;

let live: LiveService;
beforeAll(async () => {
  live = await listenLiveAgainstFakeGoogle({ now: () => now });
  ({ app: t, server, google } = live);
});
afterAll(async () => {
  await live?.close();
});

async function workspace(account: string, leads: string[], grant?: string[]): Promise<Workspace> {
  const owner = await t.signup();
  const token = owner.token;
  const capabilities = ['read_replies'];
  const started = await json(
    t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'gmail', capabilities } }),
    201,
  );
  await fetch(await google.consent(started.authorization_url, { email: account, grant }));
  const connector = await json(t.request(`/api/v1/connectors/${started.id}`, { token }));
  await json(
    t.request('/api/v1/workspace/settings', {
      method: 'PATCH',
      token,
      json: { postal_address: 'Acme Ltd, 1 Main St' },
    }),
  );
  const created = [];
  for (const email of leads)
    created.push(
      await json(
        t.request('/api/v1/leads', {
          method: 'POST',
          token,
          json: { email, first_name: 'Lee', company: 'Co', custom_fields: { plan: 'pro' } },
        }),
        201,
      ),
    );
  if (created.length === 0) return { owner, connector, leads: created };
  const seq = await approvedSequence(t, { owner, connector, leads: created }, twoSteps(connector.id));
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token,
      json: { enroll: { lead_ids: created.map((l) => l.id) } },
    }),
  );
  await drain(t);
  return { owner, connector, leads: created };
}

/** Our step-1 message to the lead, with the Gmail thread the fake put it in. */
async function firstMessage(leadId: string) {
  const [row] = await t.deps.db.sql<{ id: string; message_id_header: string; provider_message_id: string }[]>`
    select id, message_id_header, provider_message_id from sequence_messages where lead_id = ${leadId} and step = 1`;
  const sent = google.mailboxes.find((m) => m.id === row.provider_message_id);
  return { ...row, threadId: sent?.threadId as string };
}

const enrollment = async (leadId: string) =>
  (await t.deps.db.sql`select status, stop_reason from sequence_enrollments where lead_id = ${leadId}`)[0];

describe('replies through Gmail (live mode, fake Google)', () => {
  it('a reply delivered at Google is found by the sync and stops the lead’s next step', async () => {
    const ws = await workspace('live-stop@gmail.example', ['lia@one.example', 'max@two.example']);
    const ours = await firstMessage(ws.leads[0].id);
    google.deliver({
      to: 'live-stop@gmail.example',
      from: 'Lia <lia@one.example>',
      subject: 'Re: Hello',
      threadId: ours.threadId,
      headers: { 'In-Reply-To': ours.message_id_header },
      internalDate: now,
    });
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    const [row] = await t.deps.db
      .sql`select classification, effect from inbound_messages where connector_id = ${ws.connector.id} and classification <> 'ignored'`;
    expect(row).toMatchObject({ classification: 'reply', effect: 'stopped' });
    now = new Date(now.getTime() + 3 * DAY);
    await drain(t);
    const step2 = await t.deps.db
      .sql`select to_email from sequence_messages where step = 2 and status = 'sent' and sequence_id in (select sequence_id from sequence_enrollments where lead_id = ${ws.leads[0].id})`;
    expect(step2.map((r) => r.to_email)).toEqual(['max@two.example']);
    await relogin(t, ws);
    const got = await json(t.request(`/api/v1/connectors/${ws.connector.id}`, { token: ws.owner.token }));
    expect(got.mailbox_sync).toMatchObject({ status: 'idle', last_error: null });
    expect(got.mailbox_sync.history_id).toBeTruthy();
  });

  it('a reply landing between the claim and the send prevents the send', async () => {
    const ws = await workspace('live-race@gmail.example', ['nia@three.example']);
    const ours = await firstMessage(ws.leads[0].id);
    // The sender records each message's Gmail thread (the sequences part of issue 28); set here so this test stands alone.
    await t.deps.db.sql`update sequence_messages set thread_id = ${ours.threadId} where id = ${ours.id}`;
    now = new Date(now.getTime() + 3 * DAY);
    await dispatchDue(t.deps);
    const connector = await findConnector(t.deps.db.sql, ws.owner.workspaceId, ws.connector.id);
    if (!connector) throw new Error('no connector');
    const held = await claimForMailbox(t.deps, connector);
    expect(held.map((h) => h.message.step)).toEqual([2]);
    google.deliver({
      to: 'live-race@gmail.example',
      from: 'nia@three.example',
      subject: 'Re: Hello',
      threadId: ours.threadId,
      headers: { 'In-Reply-To': ours.message_id_header },
      internalDate: now,
    });
    const sends = google.sendCount;
    await sendClaimedMessage(t.deps, connector, held[0].message, held[0].token);
    expect(google.sendCount).toBe(sends);
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    const [m] = await t.deps.db.sql`select status from sequence_messages where id = ${held[0].message.id}`;
    expect(m.status).toBe('cancelled');
  });

  it('a consent that left gmail.metadata out gives no read_replies: sync_connector_mailbox answers 409, the sync does nothing', async () => {
    const grant = ['openid', 'email', 'https://www.googleapis.com/auth/gmail.send'];
    const ws = await workspace('live-noscope@gmail.example', [], grant);
    expect((ws.connector as { capabilities?: string[] }).capabilities).toEqual(['send']);
    const res = await t.request(`/api/v1/connectors/${ws.connector.id}/sync`, {
      method: 'POST',
      token: ws.owner.token,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toContain('reconnect_connector_id');
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('skipped');
  });
});
