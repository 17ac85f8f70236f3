// A sequence's reply settings and thread steps over REST (sandbox mode): their defaults and round trip, the
// validation of in_thread and subjects, the blocking replies_not_seen check (preview, submit, launch) for a
// sender that cannot read replies and its explicit override, and the reply counts in the stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { GMAIL_METADATA_SCOPE } from '../../../src/handlers/connectors/google/google-endpoints.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { approvedSequence, drain, json, readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => new Date('2026-11-24T10:00:00Z') },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function problem(res: Promise<Response>, status: number, code: string): Promise<any> {
  const r = await res;
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  return body;
}

const post = (path: string, token: string, body?: unknown) =>
  t.request(path, { method: 'POST', token, ...(body === undefined ? {} : { json: body }) });
const patch = (ws: Workspace, id: string, revision: number, body: unknown) =>
  t.request(`/api/v1/sequences/${id}`, {
    method: 'PATCH',
    token: ws.owner.token,
    headers: { 'if-match': `"${revision}"` },
    json: body,
  });

describe('reply settings and thread steps', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await readyWorkspace(t);
  });

  it('defaults to stopping on replies with later steps in the thread, and round-trips every setting', async () => {
    const created = await json(
      post('/api/v1/sequences', ws.owner.token, {
        name: 'Defaults',
        steps: [
          { subject: 'Hi {{first_name}}', body: 'One' },
          { wait_days: 2, body: 'Two' },
        ],
      }),
      201,
    );
    expect(created).toMatchObject({
      stop_on_reply: true,
      stop_on_auto_reply: false,
      auto_reply_pause_days: 3,
      stop_for_company: false,
    });
    expect(created.steps).toEqual([
      { position: 1, wait_days: 0, subject: 'Hi {{first_name}}', body: 'One', in_thread: false },
      { position: 2, wait_days: 2, subject: null, body: 'Two', in_thread: true },
    ]);
    const settings = {
      stop_on_reply: false,
      stop_on_auto_reply: true,
      auto_reply_pause_days: 7,
      stop_for_company: true,
    };
    await json(patch(ws, created.id, created.revision, settings));
    const got = await json(t.request(`/api/v1/sequences/${created.id}`, { token: ws.owner.token }));
    expect(got).toMatchObject({ ...settings, revision: created.revision + 1 });
    expect(got.steps).toEqual(created.steps);
  });

  it('refuses a first step in the thread and a step out of the thread without a subject, naming each field', async () => {
    const refused = await problem(
      post('/api/v1/sequences', ws.owner.token, {
        name: 'Bad threads',
        steps: [{ subject: 'Hi', body: 'One', in_thread: true }, { body: 'Two', in_thread: false }, { body: 'Three' }],
      }),
      400,
      'validation_failed',
    );
    expect(refused.errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/steps/0/in_thread', 'invalid_thread'],
      ['/steps/1/subject', 'required'],
    ]);
    const noFirstSubject = await problem(
      post('/api/v1/sequences', ws.owner.token, { name: 'No subject', steps: [{ body: 'One' }] }),
      400,
      'validation_failed',
    );
    expect(noFirstSubject.errors.map((e: any) => [e.pointer, e.code])).toEqual([['/steps/0/subject', 'required']]);
  });

  it('previews a follow-up in the thread as "Re:" the first subject', async () => {
    const seq = await json(
      post('/api/v1/sequences', ws.owner.token, {
        ...twoSteps(ws.connector.id),
        steps: [
          { subject: 'Hello {{first_name}}', body: 'One' },
          { wait_days: 2, body: 'Two' },
        ],
      }),
      201,
    );
    const preview = await json(
      post(`/api/v1/sequences/${seq.id}/preview`, ws.owner.token, { lead_ids: [ws.leads[0].id] }),
    );
    expect(preview.leads[0].messages.map((m: any) => m.subject)).toEqual(['Hello Grace', 'Re: Hello Grace']);
    expect(preview.checks).toEqual([]);
  });

  it('counts replied and auto-replied leads and late bounces in the stats', async () => {
    const seq = await approvedSequence(t, ws);
    await json(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token, { enroll: { lead_ids: ws.leads.map((l) => l.id) } }),
    );
    await drain(t);
    const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }));
    expect(sent.data).toHaveLength(3);
    // What the mailbox sync records on the messages it matched (built elsewhere), written here directly.
    const states = ['replied', 'auto_replied', 'bounced'];
    for (const [i, m] of sent.data.entries())
      await t.deps.db
        .sql`update sequence_messages set reply_state = ${states[i]}, replied_at = now() where id = ${m.id}`;
    const got = await json(t.request(`/api/v1/sequences/${seq.id}`, { token: ws.owner.token }));
    expect(got.stats).toEqual({
      enrolled: 3,
      scheduled: 0,
      sent: 3,
      failed: 0,
      bounced: 0,
      unsubscribed: 0,
      uncertain: 0,
      replied: 1,
      auto_replied: 1,
      bounced_late: 1,
    });
    const listed = await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }));
    expect(listed.data.map((m: any) => m.reply_state).sort()).toEqual(['auto_replied', 'bounced', 'replied']);
  });
});

describe('a sender that cannot read replies', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await readyWorkspace(t, undefined, { capabilities: ['send'] });
    expect(ws.connector.scopes_granted).not.toContain(GMAIL_METADATA_SCOPE);
  });

  it('blocks preview and submit with replies_not_seen, saying how to grant read_replies or to turn stop_on_reply off', async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(ws.connector.id)), 201);
    const preview = await json(
      post(`/api/v1/sequences/${seq.id}/preview`, ws.owner.token, { lead_ids: [ws.leads[0].id] }),
    );
    const blocking = preview.checks.filter((c: any) => c.severity === 'blocking');
    expect(blocking.map((c: any) => c.code)).toEqual(['replies_not_seen']);
    expect(blocking[0].message).toContain(`reconnect_connector_id "${ws.connector.id}"`);
    expect(blocking[0].message).toContain('capabilities ["read_replies"]');
    expect(blocking[0].message).toContain('stop_on_reply false');
    const refused = await problem(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token), 409, 'sequence_blocked');
    expect(refused.errors.map((e: any) => e.code)).toEqual(['replies_not_seen']);
  });

  it('sends once stop_on_reply is turned off explicitly, with a warning that replies will not stop it', async () => {
    const seq = await json(
      post('/api/v1/sequences', ws.owner.token, { ...twoSteps(ws.connector.id), stop_on_reply: false }),
      201,
    );
    const preview = await json(
      post(`/api/v1/sequences/${seq.id}/preview`, ws.owner.token, { lead_ids: [ws.leads[0].id] }),
    );
    // twoSteps' second step sets its own subject in the thread: thread_subject_differs warns about that too.
    expect(preview.checks.map((c: any) => [c.code, c.severity])).toEqual([
      ['replies_do_not_stop', 'warning'],
      ['thread_subject_differs', 'warning'],
    ]);
    const approved = await approvedSequence(t, ws, { ...twoSteps(ws.connector.id), stop_on_reply: false });
    await json(
      post(`/api/v1/sequences/${approved.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[0].id] } }),
    );
    await drain(t);
    const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${approved.id}`, { token: ws.owner.token }));
    expect(sent.data.map((m: any) => m.status)).toEqual(['sent']);
  });

  it('refuses to launch an approved sequence whose sender lost read_replies', async () => {
    const other = await readyWorkspace(t);
    const seq = await approvedSequence(t, other);
    await t.deps.db
      .sql`update connectors set scopes_granted = array_remove(scopes_granted, ${GMAIL_METADATA_SCOPE}) where id = ${other.connector.id}`;
    const refused = await problem(
      post(`/api/v1/sequences/${seq.id}/launch`, other.owner.token, { enroll: { lead_ids: [other.leads[0].id] } }),
      409,
      'sequence_blocked',
    );
    expect(refused.detail).toContain(`reconnect_connector_id "${other.connector.id}"`);
  });
});
