// simulate_sandbox_inbound on a sequence's message (`msg_`): the lead answers in the message's Gmail thread;
// a message that went through a live connector, or never left, is refused with `not_sandbox`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from './listen.ts';
import { simulate } from './sandbox-inbox-fixtures.ts';
import { approvedSequence, drain, json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let sent: any[];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  ws = await readyWorkspace(t);
  const seq = await approvedSequence(t, ws);
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  await drain(t);
  sent = (await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }))).data;
  expect(sent.filter((m) => m.status === 'sent')).toHaveLength(3);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('simulate_sandbox_inbound on a sequence message', () => {
  it('answers as the lead the message went to, in its thread', async () => {
    const message = sent[0];
    const res = await simulate(t, ws.owner, { message_id: message.id, kind: 'reply', text: 'Not interested.' });
    expect(res.status, await res.clone().text()).toBe(201);
    const inbound = await res.json();
    expect(inbound).toMatchObject({ direction: 'inbound', from: message.to_email ?? expect.any(String) });
    const [row] = await t.db.sql<{ thread_id: string; raw: string }[]>`
      select thread_id, raw from sandbox_messages where id = ${inbound.id}`;
    const [original] = await t.db.sql<{ thread_id: string; message_id_header: string }[]>`
      select thread_id, message_id_header from sandbox_messages where id = ${message.provider_message_id}`;
    expect(row.thread_id).toBe(original.thread_id);
    expect(row.raw.replace(/\r\n[ \t]+/g, ' ')).toContain(`In-Reply-To: ${original.message_id_header}`);
  });

  it('refuses a message sent through a live connector with not_sandbox', async () => {
    await t.db.sql`update sequence_messages set mode = 'live' where id = ${sent[1].id}`;
    const res = await simulate(t, ws.owner, { message_id: sent[1].id, kind: 'reply' });
    expect(res.status).toBe(409);
    const problem = await res.json();
    expect(problem.code).toBe('not_sandbox');
    expect(problem.detail).toMatch(/test helper for sandbox mode/);
    expect(problem.detail).toMatch(/live connector/);
  });

  it('refuses a message that was never sent', async () => {
    await t.db.sql`update sequence_messages set status = 'failed' where id = ${sent[2].id}`;
    const res = await simulate(t, ws.owner, { message_id: sent[2].id, kind: 'bounce' });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/never sent/);
  });

  it('does not find another workspace’s sequence message', async () => {
    const stranger = await t.signup();
    expect((await simulate(t, stranger, { message_id: sent[0].id, kind: 'reply' })).status).toBe(404);
  });
});
