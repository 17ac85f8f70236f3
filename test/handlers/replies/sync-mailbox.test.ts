// The mailbox sync and what inbound messages do, in live mode: the connector is connected and sends
// through the strict fake Google; what comes back is delivered by a scripted mailbox reader (Gmail-shaped
// pages and history) handed to the sync, so each message's fetch can be counted and a run cut midway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenLiveAgainstFakeGoogle, type LiveService } from '../connectors/live-service.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import { approvedSequence, drain, json, twoSteps, type Workspace } from '../sequences/sequence-fixtures.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import { ScriptedMailbox } from './scripted-mailbox.ts';

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

async function workspace(account: string, leads: string[], capabilities = ['read_replies']): Promise<Workspace> {
  const owner = await t.signup();
  const token = owner.token;
  const started = await json(
    t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'gmail', capabilities } }),
    201,
  );
  await fetch(await google.consent(started.authorization_url, { email: account }));
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
  return { owner, connector, leads: created };
}

async function launched(ws: Workspace, settings: Record<string, unknown> = {}) {
  const token = ws.owner.token;
  const body = { ...twoSteps(ws.connector.id), ...settings };
  const seq = await approvedSequence(t, ws, body);
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  await drain(t);
  return seq;
}

/** Our first message to a lead: its Message-ID, as a reply's In-Reply-To names it. */
async function sentTo(leadId: string): Promise<{ id: string; message_id_header: string; enrollment_id: string }> {
  const [row] = await t.deps.db.sql<{ id: string; message_id_header: string; enrollment_id: string }[]>`
    select id, message_id_header, enrollment_id from sequence_messages where lead_id = ${leadId} and step = 1`;
  return row;
}

async function enrollment(leadId: string) {
  const [row] = await t.deps.db.sql<{ status: string; stop_reason: string | null; next_due_at: Date | null }[]>`
    select status, stop_reason, next_due_at from sequence_enrollments where lead_id = ${leadId}`;
  return row;
}

const inbound = (connectorId: string) =>
  t.deps.db.sql<{ provider_message_id: string; classification: string; effect: string | null }[]>`
    select provider_message_id, classification, effect from inbound_messages where connector_id = ${connectorId}
    order by provider_message_id`;

async function replyFrom(box: ScriptedMailbox, id: string, lead: { id: string; email: string }, extra = {}) {
  const ours = await sentTo(lead.id);
  return box.deliver({
    id,
    receivedAt: now,
    headers: { from: `Lead <${lead.email}>`, subject: 'Re: Hello', 'in-reply-to': ours.message_id_header, ...extra },
  });
}

const step2To = async (email: string) =>
  (await t.deps.db.sql`select 1 from sequence_messages where to_email = ${email} and step = 2 and status = 'sent'`)
    .length;

describe('mailbox sync (live mode, scripted inbox)', () => {
  it('a reply stops the lead’s next step, records last_replied_at and the message’s reply state', async () => {
    const ws = await workspace('stop@gmail.example', ['ann@one.example', 'bob@two.example']);
    await launched(ws);
    const box = new ScriptedMailbox();
    box.deliver({ id: 'noise', headers: { from: 'news@shop.example', subject: 'Sale' } });
    await replyFrom(box, 'r1', ws.leads[0]);
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box })).toBe('synced');
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    expect(await inbound(ws.connector.id)).toEqual([
      { provider_message_id: 'noise', classification: 'ignored', effect: null },
      { provider_message_id: 'r1', classification: 'reply', effect: 'stopped' },
    ]);
    const [lead] = await t.deps.db.sql`select last_replied_at from leads where id = ${ws.leads[0].id}`;
    expect(lead.last_replied_at).toBeTruthy();
    const [msg] = await t.deps.db
      .sql`select reply_state from sequence_messages where lead_id = ${ws.leads[0].id} and step = 1`;
    expect(msg.reply_state).toBe('replied');
    now = new Date(now.getTime() + 3 * DAY);
    await drain(t);
    expect(await step2To('ann@one.example')).toBe(0);
    expect(await step2To('bob@two.example')).toBe(1);
  });

  it('an auto-reply pauses the lead’s next step by auto_reply_pause_days, then it goes', async () => {
    const ws = await workspace('ooo@gmail.example', ['cat@three.example']);
    await launched(ws, { auto_reply_pause_days: 5 });
    const before = (await enrollment(ws.leads[0].id)).next_due_at as Date;
    const box = new ScriptedMailbox();
    await replyFrom(box, 'a1', ws.leads[0], { subject: 'Automatic reply: Hello', 'auto-submitted': 'auto-replied' });
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    const paused = await enrollment(ws.leads[0].id);
    expect(paused.status).toBe('active');
    expect((paused.next_due_at as Date).getTime() - before.getTime()).toBe(5 * DAY);
    expect(await inbound(ws.connector.id)).toEqual([
      { provider_message_id: 'a1', classification: 'auto_reply', effect: 'paused' },
    ]);
    now = new Date(now.getTime() + 3 * DAY);
    await drain(t);
    expect(await step2To('cat@three.example')).toBe(0);
    now = new Date(now.getTime() + 5 * DAY);
    await drain(t);
    expect(await step2To('cat@three.example')).toBe(1);
  });

  it('stop_for_company stops a colleague at the same company but not another gmail.com lead', async () => {
    const ws = await workspace('co@gmail.example', [
      'jo@acme.example',
      'kim@sales.acme.example',
      'al@gmail.com',
      'bo@gmail.com',
    ]);
    await launched(ws, { stop_for_company: true });
    const box = new ScriptedMailbox();
    await replyFrom(box, 'c1', ws.leads[0]);
    await replyFrom(box, 'c2', ws.leads[2]);
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    expect(await enrollment(ws.leads[1].id)).toMatchObject({ status: 'stopped', stop_reason: 'company_replied' });
    expect(await enrollment(ws.leads[2].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    expect(await enrollment(ws.leads[3].id)).toMatchObject({ status: 'active' });
  });

  it('a late permanent bounce marks the message bounced and the lead bounced and suppressed', async () => {
    const ws = await workspace('dsn@gmail.example', ['gone@four.example']);
    await launched(ws);
    const box = new ScriptedMailbox();
    const ours = await sentTo(ws.leads[0].id);
    box.deliver({
      id: 'b1',
      headers: {
        from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        subject: 'Delivery Status Notification (Failure)',
        'content-type': 'multipart/report; report-type=delivery-status; boundary="x"',
        references: ours.message_id_header,
      },
    });
    box.deliver({
      id: 'b2',
      headers: {
        from: 'mailer-daemon@googlemail.com',
        subject: 'Delivery Status Notification (Delay)',
        references: ours.message_id_header,
      },
    });
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    expect(await inbound(ws.connector.id)).toEqual([
      { provider_message_id: 'b1', classification: 'bounce', effect: 'suppressed' },
      { provider_message_id: 'b2', classification: 'bounce', effect: 'none' },
    ]);
    const lead = await json(t.request(`/api/v1/leads/${ws.leads[0].id}`, { token: ws.owner.token }));
    expect(lead.status).toBe('bounced');
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'bounced' });
    const [msg] = await t.deps.db.sql`select reply_state from sequence_messages where id = ${ours.id}`;
    expect(msg.reply_state).toBe('bounced');
  });

  it('reads history incrementally, and after an expired historyId reads 30 days again without recording anything twice', async () => {
    const ws = await workspace('hist@gmail.example', ['dee@five.example', 'eve@six.example']);
    await launched(ws);
    const box = new ScriptedMailbox();
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    await replyFrom(box, 'h1', ws.leads[0]);
    for (let i = 0; i < 5; i++) box.deliver({ id: `n${i}`, headers: { from: 'x@y.example' } });
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    expect((await inbound(ws.connector.id)).length).toBe(6);
    box.oldestHistoryId = Number.MAX_SAFE_INTEGER;
    await replyFrom(box, 'h2', ws.leads[1]);
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box })).toBe('synced');
    expect((await inbound(ws.connector.id)).length).toBe(7);
    expect([...box.fetches.values()].every((n) => n === 1)).toBe(true);
    const [sync] = await t.deps.db
      .sql`select history_id, last_full_sync_at from mailbox_syncs where connector_id = ${ws.connector.id}`;
    expect(sync.history_id).toBe(String(box.historyId));
    expect(sync.last_full_sync_at).toBeTruthy();
  });

  it('two syncs of one mailbox at once record each message once', async () => {
    const ws = await workspace('race@gmail.example', ['fay@seven.example']);
    await launched(ws);
    const box = new ScriptedMailbox();
    await replyFrom(box, 'x1', ws.leads[0]);
    for (let i = 0; i < 6; i++) box.deliver({ id: `y${i}`, headers: { from: 'x@y.example' } });
    const results = await Promise.all([
      syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box }),
      syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box }),
    ]);
    expect(results.sort()).toEqual(['busy', 'synced']);
    const rows = await inbound(ws.connector.id);
    expect(rows.length).toBe(7);
    const [{ n }] = await t.deps.db
      .sql`select count(*)::int as n from events where type = 'email_message.replied' and data->>'lead_id' = ${ws.leads[0].id}`;
    expect(n).toBe(1);
  });

  it('a sync cut off midway loses and duplicates nothing when run again', async () => {
    const ws = await workspace('cut@gmail.example', ['gus@eight.example']);
    await launched(ws);
    const box = new ScriptedMailbox();
    await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box });
    const start = (await t.deps.db.sql`select history_id from mailbox_syncs where connector_id = ${ws.connector.id}`)[0]
      .history_id;
    for (let i = 0; i < 3; i++) box.deliver({ id: `k${i}`, headers: { from: 'x@y.example' } });
    await replyFrom(box, 'k9', ws.leads[0]);
    const abort = new AbortController();
    let fetched = 0;
    box.onFetch = () => {
      if (++fetched === 3) abort.abort();
    };
    expect(
      await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box, signal: abort.signal }),
    ).toBe('failed');
    const cut = await t.deps.db
      .sql`select history_id, last_error from mailbox_syncs where connector_id = ${ws.connector.id}`;
    expect(cut[0].history_id).toBe(start);
    expect(cut[0].last_error).toMatch(/interrupted/);
    expect((await inbound(ws.connector.id)).length).toBeLessThan(4);
    box.onFetch = () => undefined;
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box })).toBe('synced');
    expect((await inbound(ws.connector.id)).map((r) => r.provider_message_id)).toEqual(['k0', 'k1', 'k2', 'k9']);
    expect(await enrollment(ws.leads[0].id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
  });

  it('a token Gmail refuses for reading leaves a last_error that says to reconnect with read_replies', async () => {
    const ws = await workspace('scope@gmail.example', ['hal@nine.example']);
    const box = new ScriptedMailbox();
    box.scopeRefused = true;
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box })).toBe('failed');
    const got = await json(t.request(`/api/v1/connectors/${ws.connector.id}`, { token: ws.owner.token }));
    expect(got.mailbox_sync).toMatchObject({ status: 'idle' });
    expect(got.mailbox_sync.last_error).toContain('reconnect_connector_id');
    expect(got.mailbox_sync.last_error).toContain('read_replies');
  });

  it('sync_connector_mailbox answers 409 with the reconnect hint for a connector without read_replies', async () => {
    const ws = await workspace('send-only@gmail.example', [], ['send']);
    const res = await t.request(`/api/v1/connectors/${ws.connector.id}/sync`, {
      method: 'POST',
      token: ws.owner.token,
    });
    expect(res.status).toBe(409);
    const problem = await res.json();
    expect(problem.detail).toContain('start_connector_oauth');
    expect(problem.detail).toContain('"read_replies"');
    const got = await json(t.request(`/api/v1/connectors/${ws.connector.id}`, { token: ws.owner.token }));
    expect(got.mailbox_sync).toBeNull();
  });

  it('sync_connector_mailbox queues a sync and shows it queued', async () => {
    const ws = await workspace('ondemand@gmail.example', []);
    const body = await json(
      t.request(`/api/v1/connectors/${ws.connector.id}/sync`, { method: 'POST', token: ws.owner.token }),
    );
    expect(body).toMatchObject({ connector_id: ws.connector.id, status: 'queued', history_id: null, last_error: null });
  });

  it('hostile inbound messages (CRLF, 1 MB subject, invalid UTF-8, nested multipart) are classified, never stuck', async () => {
    const ws = await workspace('hostile@gmail.example', ['ivy@ten.example']);
    await launched(ws, { stop_on_reply: false });
    const box = new ScriptedMailbox();
    const ours = await sentTo(ws.leads[0].id);
    const base = { from: 'ivy@ten.example', 'in-reply-to': ours.message_id_header };
    box.deliver({ id: 'z1', headers: { ...base, subject: 'Re: hi\r\nBcc: all@x.example' } });
    box.deliver({ id: 'z2', headers: { ...base, subject: `Re: ${'x'.repeat(1024 * 1024)}` } });
    box.deliver({ id: 'z3', headers: { ...base, subject: '\uFFFD\uD800 broken\u0000' }, text: 'a\u0000b\uDC00' });
    box.deliver({
      id: 'z4',
      headers: { ...base, 'content-type': 'multipart/mixed; boundary="a"', subject: 'multipart/report inside' },
    });
    box.deliver({ id: 'z5', headers: {} });
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id, { reader: box })).toBe('synced');
    const rows = await inbound(ws.connector.id);
    expect(rows.map((r) => r.provider_message_id)).toEqual(['z1', 'z2', 'z3', 'z4', 'z5']);
    const subjects = await t.deps.db.sql<
      { subject: string | null }[]
    >`select subject from inbound_messages where connector_id = ${ws.connector.id}`;
    for (const { subject } of subjects) expect((subject ?? '').length).toBeLessThanOrEqual(998);
  });
});
