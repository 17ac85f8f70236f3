// list_replies: what came back, newest first, without the ignored; filters by sequence, lead, classification
// and since; pages with a cursor; shows the lead's words only with read_reply_text; and with wait_seconds
// answers as soon as the sync records one. Rows are seeded (inbound-fixture.ts); the sync has its own tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { seedInbound } from './inbound-fixture.ts';
import { conversingWorkspace, type Conversing } from './reply-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let c: Conversing;
const ids: Record<string, string> = {};
const base = Date.parse('2026-03-02T10:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  c = await conversingWorkspace(t, [
    { email: 'grace@example.com', first_name: 'Grace' },
    { email: 'alan@example.com', first_name: 'Alan' },
  ]);
  const [grace, alan] = c.ws.leads;
  const seed = (
    name: string,
    leadId: string | null,
    classification: any,
    minutes: number,
    text: string | null = null,
  ) =>
    seedInbound(t, {
      workspaceId: c.ws.owner.workspaceId,
      connectorId: c.ws.connector.id,
      leadId,
      classification,
      sequenceId: leadId ? c.sequenceId : null,
      sequenceMessageId: c.sent.find((m) => m.lead_id === leadId)?.id ?? null,
      subject: 'Re: Hello',
      text,
      receivedAt: at(minutes),
    }).then((r) => {
      ids[name] = r.id;
    });
  await seed('graceReply', grace.id, 'reply', 1, 'Sounds good');
  await seed('alanAuto', alan.id, 'auto_reply', 2);
  await seed('spam', null, 'ignored', 3);
  await seed('alanBounce', alan.id, 'bounce', 4);
  await seed('graceUnsub', grace.id, 'unsubscribe_request', 5);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const list = (query: string) => json(t.request(`/api/v1/replies?${query}`, { token: c.ws.owner.token }));

describe('list_replies', () => {
  it('lists what came back newest first, without ignored messages', async () => {
    const page = await list('');
    expect(page.data.map((r: any) => r.id)).toEqual([ids.graceUnsub, ids.alanBounce, ids.alanAuto, ids.graceReply]);
    expect(page.data[1]).toMatchObject({
      classification: 'bounce',
      bounce_type: 'permanent',
      sequence_id: c.sequenceId,
    });
  });

  it('filters by lead, sequence, classification and since', async () => {
    const [grace] = c.ws.leads;
    expect((await list(`lead_id=${grace.id}`)).data.map((r: any) => r.id)).toEqual([ids.graceUnsub, ids.graceReply]);
    expect((await list('classification=reply,bounce')).data.map((r: any) => r.id)).toEqual([
      ids.alanBounce,
      ids.graceReply,
    ]);
    expect((await list(`sequence_id=${c.sequenceId}&classification=auto_reply`)).data.map((r: any) => r.id)).toEqual([
      ids.alanAuto,
    ]);
    expect((await list(`since=${encodeURIComponent(at(2).toISOString())}`)).data.map((r: any) => r.id)).toEqual([
      ids.graceUnsub,
      ids.alanBounce,
    ]);
  });

  it('pages with a cursor', async () => {
    const first = await list('limit=3');
    expect(first.has_more).toBe(true);
    const second = await list(`limit=3&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect([...first.data, ...second.data].map((r: any) => r.id)).toEqual([
      ids.graceUnsub,
      ids.alanBounce,
      ids.alanAuto,
      ids.graceReply,
    ]);
    expect(second.has_more).toBe(false);
  });

  it('shows the lead’s words only when the mailbox has read_reply_text', async () => {
    expect((await list(`classification=reply`)).data[0].text).toBeNull();
    // As a grant of read_reply_text holds it: gmail.readonly in place of gmail.metadata (Google limits any
    // token that carries gmail.metadata to headers).
    await t.db.sql`update connectors set scopes_granted = array_append(
        array_remove(scopes_granted, 'https://www.googleapis.com/auth/gmail.metadata'),
        'https://www.googleapis.com/auth/gmail.readonly')
      where id = ${c.ws.connector.id}`;
    expect((await list(`classification=reply`)).data[0].text).toBe('Sounds good');
  });

  it('waits for the next reply with wait_seconds and answers when the sync records one', async () => {
    const since = encodeURIComponent(at(10).toISOString());
    const waiting = list(`since=${since}&wait_seconds=30`);
    const seeded = await seedInbound(t, {
      workspaceId: c.ws.owner.workspaceId,
      connectorId: c.ws.connector.id,
      leadId: c.ws.leads[0].id,
      subject: 'Re: Hello',
      receivedAt: at(11),
    });
    t.deps.resourceWatch.changed(`replies:${c.ws.owner.workspaceId}`);
    expect((await waiting).data.map((r: any) => r.id)).toEqual([seeded.id]);
  });

  it('shows another workspace none of them', async () => {
    const other = await t.signup();
    expect((await json(t.request('/api/v1/replies', { token: other.token }))).data).toEqual([]);
  });
});
