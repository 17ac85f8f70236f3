// reply_to_conversation and its human gate: a person's own login sends at once, in the lead's thread; an API
// key's reply waits for a person (approval_url), who approves it (sent once) or rejects it (never sent); a
// retried request with the same Idempotency-Key sends once; a lead who cannot be written to is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { seedInbound } from './inbound-fixture.ts';
import { conversingWorkspace, mimeHeader, sandboxRaw, type Conversing } from './reply-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let c: Conversing;
let grace: { id: string; email: string };
let theirs: { id: string; messageIdHeader: string };

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  c = await conversingWorkspace(t, [
    { email: 'grace@example.com', first_name: 'Grace' },
    { email: 'alan@example.com', first_name: 'Alan' },
  ]);
  grace = c.ws.leads[0];
  const ours = c.sent.find((m) => m.lead_id === grace.id)!;
  theirs = await seedInbound(t, {
    workspaceId: c.ws.owner.workspaceId,
    connectorId: c.ws.connector.id,
    leadId: grace.id,
    sequenceMessageId: ours.id,
    sequenceId: c.sequenceId,
    threadId: ours.thread_id ?? ours.provider_message_id,
    inReplyTo: ours.message_id_header,
    subject: `Re: ${ours.subject}`,
    receivedAt: new Date(),
  });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const reply = (leadId: string, token: string, body: string, headers: Record<string, string> = {}) =>
  t.request(`/api/v1/leads/${leadId}/conversation/replies`, { method: 'POST', token, headers, json: { body } });
const sentCount = async () => (await sandboxRaw(t, c.ws.owner.workspaceId)).length;

describe('reply_to_conversation', () => {
  it('sends a person’s reply at once, in the lead’s thread, answering their message', async () => {
    const before = await sentCount();
    const ours = c.sent.find((m) => m.lead_id === grace.id)!;
    const r = await json(reply(grace.id, c.ws.owner.token, 'Thanks Grace, Tuesday works.'), 201);
    expect(r).toMatchObject({
      status: 'sent',
      lead_id: grace.id,
      to: 'grace@example.com',
      mode: 'sandbox',
      subject: `Re: ${ours.subject}`,
      body: 'Thanks Grace, Tuesday works.',
      approval_url: null,
    });
    expect(r.message_id).toMatch(/^<crp_/);
    const raws = await sandboxRaw(t, c.ws.owner.workspaceId);
    expect(raws).toHaveLength(before + 1);
    const raw = raws.at(-1)!;
    expect(mimeHeader(raw, 'In-Reply-To')).toBe(theirs.messageIdHeader);
    expect(mimeHeader(raw, 'References')).toBe(`${ours.message_id_header} ${theirs.messageIdHeader}`);
    expect(mimeHeader(raw, 'Subject')).toBe(`Re: ${ours.subject}`);
    expect(mimeHeader(raw, 'Content-Type')).toMatch(/^text\/plain/);
    const [row] = await t.db.sql`select thread_id from conversation_replies where id = ${r.id}`;
    expect(row.thread_id).toBe(ours.thread_id ?? ours.provider_message_id);
    const events = await json(t.request('/api/v1/events?type=conversation_reply.sent', { token: c.ws.owner.token }));
    expect(events.data.some((e: any) => e.data.id === r.id && !('body' in e.data))).toBe(true);
  });

  it('answers our last message when the lead has not written back', async () => {
    const alan = c.ws.leads[1];
    const ours = c.sent.find((m) => m.lead_id === alan.id)!;
    const r = await json(reply(alan.id, c.ws.owner.token, 'Bumping this up, Alan.'), 201);
    expect(r).toMatchObject({ status: 'sent', subject: `Re: ${ours.subject}` });
    const raw = (await sandboxRaw(t, c.ws.owner.workspaceId)).at(-1)!;
    expect(mimeHeader(raw, 'In-Reply-To')).toBe(ours.message_id_header);
  });

  it('keeps an API key’s reply pending approval with an approval_url, and refuses the key’s approval', async () => {
    const before = await sentCount();
    const key = await t.createKey(c.ws.owner.token, 'agent');
    const r = await json(reply(grace.id, key.key, 'Agent draft'), 201);
    expect(r.status).toBe('pending_approval');
    expect(r.approval_url).toBe(`${t.config.publicBaseUrl.replace(/\/$/, '')}/admin/approvals?reply=${r.id}`);
    const refused = await json(
      t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: key.key }),
      403,
    );
    expect(refused).toMatchObject({ code: 'approval_requires_human', approval_url: r.approval_url });
    await json(
      t.request(`/api/v1/conversation-replies/${r.id}/reject`, {
        method: 'POST',
        token: key.key,
        json: { note: 'no' },
      }),
      403,
    );
    expect(await sentCount()).toBe(before);
  });

  it('sends a reply once when a person approves it, and refuses a second approval', async () => {
    const key = await t.createKey(c.ws.owner.token, 'agent 2');
    const r = await json(reply(grace.id, key.key, 'Approve me'), 201);
    const before = await sentCount();
    const approved = await json(
      t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: c.ws.owner.token }),
    );
    expect(approved).toMatchObject({ id: r.id, status: 'sent', approval_url: null });
    expect(approved.sent_at).not.toBeNull();
    const again = await json(
      t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: c.ws.owner.token }),
      409,
    );
    expect(again.detail).toMatch(/sent/);
    expect(await sentCount()).toBe(before + 1);
  });

  it('sends once when a person approves the same reply twice at the same time', async () => {
    const key = await t.createKey(c.ws.owner.token, 'agent race');
    const r = await json(reply(grace.id, key.key, 'Raced approval'), 201);
    const before = await sentCount();
    const approve = () =>
      t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: c.ws.owner.token });
    const statuses = (await Promise.all([approve(), approve()])).map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(await sentCount()).toBe(before + 1);
  });

  it('never sends a rejected reply, and keeps the note', async () => {
    const key = await t.createKey(c.ws.owner.token, 'agent 3');
    const r = await json(reply(grace.id, key.key, 'Reject me'), 201);
    const before = await sentCount();
    const rejected = await json(
      t.request(`/api/v1/conversation-replies/${r.id}/reject`, {
        method: 'POST',
        token: c.ws.owner.token,
        json: { note: 'Too pushy' },
      }),
    );
    expect(rejected).toMatchObject({ status: 'rejected', decision_note: 'Too pushy', sent_at: null });
    await json(
      t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: c.ws.owner.token }),
      409,
    );
    expect(await sentCount()).toBe(before);
    const list = await json(
      t.request(`/api/v1/conversation-replies?status=rejected&lead_id=${grace.id}`, { token: c.ws.owner.token }),
    );
    expect(list.data.map((x: any) => x.id)).toContain(r.id);
  });

  it('sends once for a request retried with the same Idempotency-Key', async () => {
    const before = await sentCount();
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await json(reply(grace.id, c.ws.owner.token, 'Only once', headers), 201);
    const second = await json(reply(grace.id, c.ws.owner.token, 'Only once', headers), 201);
    expect(second.id).toBe(first.id);
    expect(await sentCount()).toBe(before + 1);
    const [{ count }] = await t.db
      .sql`select count(*)::int as count from conversation_replies where body = 'Only once'`;
    expect(count).toBe(1);
  });

  it('refuses a lead who unsubscribed, and a lead with no conversation', async () => {
    const before = await sentCount();
    await t.db.sql`update leads set status = 'unsubscribed' where id = ${c.ws.leads[1].id}`;
    const refused = await json(reply(c.ws.leads[1].id, c.ws.owner.token, 'Hello?'), 422);
    expect(refused.detail).toMatch(/unsubscribed/);
    const quiet = await json(
      t.request('/api/v1/leads', { method: 'POST', token: c.ws.owner.token, json: { email: 'quiet@example.com' } }),
      201,
    );
    const none = await json(reply(quiet.id, c.ws.owner.token, 'Hello?'), 409);
    expect(none.detail).toMatch(/no conversation/);
    expect(await sentCount()).toBe(before);
  });

  it('answers 404 for another workspace’s lead and reply', async () => {
    const other = await t.signup();
    await json(reply(grace.id, other.token, 'Hi'), 404);
    const key = await t.createKey(c.ws.owner.token, 'agent 4');
    const r = await json(reply(grace.id, key.key, 'Mine'), 201);
    await json(t.request(`/api/v1/conversation-replies/${r.id}/approve`, { method: 'POST', token: other.token }), 404);
    const theirs = await json(t.request('/api/v1/conversation-replies', { token: other.token }));
    expect(theirs.data).toEqual([]);
  });
});
