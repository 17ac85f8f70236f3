// get_conversation: our sequence message, the lead's reply and our answer, oldest first, with the enrollment;
// wait_seconds answers when something new happens; another workspace's lead is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { seedInbound } from './inbound-fixture.ts';
import { conversingWorkspace, type Conversing } from './reply-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let c: Conversing;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  c = await conversingWorkspace(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const conversation = (leadId: string, token = c.ws.owner.token, query = '') =>
  t.request(`/api/v1/leads/${leadId}/conversation${query}`, { token });

describe('get_conversation', () => {
  it('merges our messages and theirs oldest first, with the enrollment', async () => {
    const grace = c.ws.leads[0];
    const ours = c.sent[0];
    const theirs = await seedInbound(t, {
      workspaceId: c.ws.owner.workspaceId,
      connectorId: c.ws.connector.id,
      leadId: grace.id,
      sequenceId: c.sequenceId,
      sequenceMessageId: ours.id,
      subject: `Re: ${ours.subject}`,
      text: 'Yes please',
      receivedAt: new Date(),
    });
    await t.db.sql`update leads set last_replied_at = now() where id = ${grace.id}`;
    const reply = await json(
      t.request(`/api/v1/leads/${grace.id}/conversation/replies`, {
        method: 'POST',
        token: c.ws.owner.token,
        json: { body: 'Great, talk soon.' },
      }),
      201,
    );
    const conv = await json(conversation(grace.id));
    expect(conv).toMatchObject({ lead_id: grace.id, email: 'grace@example.com' });
    expect(conv.last_replied_at).not.toBeNull();
    expect(conv.enrollments).toEqual([
      expect.objectContaining({ sequence_id: c.sequenceId, status: expect.any(String) }),
    ]);
    expect(conv.messages.map((m: any) => [m.kind, m.direction, m.id])).toEqual([
      ['sequence_message', 'outbound', ours.id],
      ['inbound', 'inbound', theirs.id],
      ['conversation_reply', 'outbound', reply.id],
    ]);
    expect(conv.messages[0]).toMatchObject({ subject: ours.subject, text: null, status: 'sent', step: 1 });
    // The sandbox connector lacks read_reply_text: their words stay hidden; ours are shown.
    expect(conv.messages[1]).toMatchObject({ classification: 'reply', text: null });
    expect(conv.messages[2]).toMatchObject({ text: 'Great, talk soon.', status: 'sent' });
  });

  it('answers with wait_seconds when a reply waiting for approval is decided', async () => {
    const grace = c.ws.leads[0];
    const key = await t.createKey(c.ws.owner.token, 'agent');
    await json(conversation(grace.id, key.key));
    const pending = await json(
      t.request(`/api/v1/leads/${grace.id}/conversation/replies`, {
        method: 'POST',
        token: key.key,
        json: { body: 'Draft from the agent' },
      }),
      201,
    );
    // Told once about the pending reply, the agent then waits for the person's decision.
    const seen = await json(conversation(grace.id, key.key));
    expect(seen.messages.at(-1)).toMatchObject({ id: pending.id, status: 'pending_approval' });
    const waiting = json(conversation(grace.id, key.key, '?wait_seconds=30'));
    await json(
      t.request(`/api/v1/conversation-replies/${pending.id}/reject`, {
        method: 'POST',
        token: c.ws.owner.token,
        json: { note: 'Not now' },
      }),
    );
    expect((await waiting).messages.at(-1)).toMatchObject({ id: pending.id, status: 'rejected' });
  });

  it('answers 404 for another workspace’s lead', async () => {
    const other = await t.signup();
    await json(conversation(c.ws.leads[0].id, other.token), 404);
  });
});
