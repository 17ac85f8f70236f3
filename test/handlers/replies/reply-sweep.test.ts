// The sweep after a sender died between committing `sending` and recording the provider's answer: after the
// grace the reply becomes `uncertain` (it may have been delivered) and nothing sends it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { createTestApp } from '../../helpers/app.ts';
import { insertConversationReply } from '../../../src/handlers/replies/conversation-replies-data.ts';
import { STALE_SENDING_MS, sweepStaleReplySends } from '../../../src/handlers/replies/reply-sweep.ts';
import { json } from '../sequences/sequence-fixtures.ts';

let now = new Date('2026-03-02T10:00:00Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
});
afterAll(async () => {
  await t?.close();
});

describe('the sweep of replies left sending', () => {
  it('turns a reply left sending past the grace into uncertain, once, and leaves a fresh one alone', async () => {
    const owner = await t.signup();
    const lead = await json(
      t.request('/api/v1/leads', { method: 'POST', token: owner.token, json: { email: 'grace@example.com' } }),
      201,
    );
    const fields = {
      lead_id: lead.id,
      connector_id: 'conn_gone',
      mode: 'sandbox' as const,
      thread_id: null,
      in_reply_to: null,
      references_header: null,
      to_email: 'grace@example.com',
      subject: 'Re: Hello',
      body: 'Left in flight',
      status: 'sending' as const,
      created_by: owner.userId,
      created_via: 'user',
    };
    const stale = await insertConversationReply(
      t.db.sql,
      owner.workspaceId,
      { ...fields, id: t.deps.ids.make('crp') },
      now,
    );
    now = new Date(now.getTime() + STALE_SENDING_MS + 1000);
    const fresh = await insertConversationReply(
      t.db.sql,
      owner.workspaceId,
      { ...fields, id: t.deps.ids.make('crp') },
      now,
    );

    expect(await sweepStaleReplySends(t.deps)).toBe(1);
    expect(await sweepStaleReplySends(t.deps)).toBe(0);

    const login = await json(
      t.request('/api/v1/users/login', { method: 'POST', json: { email: owner.email, password: owner.password } }),
    );
    const list = await json(
      t.request(`/api/v1/conversation-replies?lead_id=${lead.id}`, { token: login.access_token }),
    );
    const byId = new Map(list.data.map((r: any) => [r.id, r]));
    expect(byId.get(stale.id)).toMatchObject({ status: 'uncertain', error_code: 'send_interrupted', sent_at: null });
    expect(byId.get(fresh.id)).toMatchObject({ status: 'sending' });
    const uncertain = await json(
      t.request('/api/v1/conversation-replies?status=uncertain', { token: login.access_token }),
    );
    expect(uncertain.data.map((r: any) => r.id)).toEqual([stale.id]);
  });
});
