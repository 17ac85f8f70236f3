// Every refusal of the sequence lifecycle, with its status and code: launch's 409s, the If-Match rule, edits
// that void an approval, the human gate for API keys and for turning the gate off, and workspace isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { approvedSequence, json, readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  ws = await readyWorkspace(t);
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

describe('launch_email_sequence refusals', () => {
  it('answers 409 sequence_not_approved with the approval URL for a draft and for one pending approval', async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(ws.connector.id)), 201);
    const draft = await problem(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token),
      409,
      'sequence_not_approved',
    );
    expect(draft.approval_url).toContain(`/admin/approvals?sequence=${seq.id}`);
    await json(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token));
    const pending = await problem(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token),
      409,
      'sequence_not_approved',
    );
    expect(pending.detail).toContain('wait_seconds');
  });

  it('answers 409 no_enrollments when every lead was skipped, and enrolls nobody', async () => {
    const seq = await approvedSequence(t, ws);
    await json(post(`/api/v1/leads/${ws.leads[1].id}/unsubscribe`, ws.owner.token));
    const refused = await problem(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[1].id] } }),
      409,
      'no_enrollments',
    );
    expect(refused.detail).toContain('1 suppressed');
    const enrollments = await json(t.request(`/api/v1/sequences/${seq.id}/enrollments`, { token: ws.owner.token }));
    expect(enrollments.data).toEqual([]);
  });

  it('answers 409 connector_not_connected for a sender waiting for consent and connector_expired for an expired one', async () => {
    const pending = await json(post('/api/v1/connectors/oauth', ws.owner.token, { provider: 'gmail' }), 201);
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(pending.id)), 201);
    const blocked = await problem(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token), 409, 'sequence_blocked');
    expect(blocked.errors.map((e: any) => e.code)).toContain('sender_not_connected');

    const approved = await approvedSequence(t, ws);
    await t.deps.db
      .sql`update connectors set status = 'pending_consent', authorization_url = 'http://consent.example/x' where id = ${ws.connector.id}`;
    const notConnected = await problem(
      post(`/api/v1/sequences/${approved.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[0].id] } }),
      409,
      'connector_not_connected',
    );
    expect(notConnected.detail).toContain('http://consent.example/x');
    await t.deps.db.sql`update connectors set status = 'expired' where id = ${ws.connector.id}`;
    const expired = await problem(
      post(`/api/v1/sequences/${approved.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[0].id] } }),
      409,
      'connector_expired',
    );
    expect(expired.detail).toContain(`reconnect_connector_id "${ws.connector.id}"`);
    await t.deps.db
      .sql`update connectors set status = 'connected', authorization_url = null where id = ${ws.connector.id}`;
  });

  it('answers 409 revision_changed when approving a revision other than the current one', async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(ws.connector.id)), 201);
    await json(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token));
    await problem(
      post(`/api/v1/sequences/${seq.id}/approve`, ws.owner.token, { revision: 7 }),
      409,
      'revision_changed',
    );
  });

  it('treats a second launch of an active sequence as a no-op', async () => {
    const seq = await approvedSequence(t, ws);
    const first = await json(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[0].id] } }),
    );
    const second = await json(post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token));
    expect([first.already_active, second.already_active]).toEqual([false, true]);
    expect(second.sequence.launched_at).toBe(first.sequence.launched_at);
  });
});

describe('editing', () => {
  it('requires If-Match on the current revision (412 otherwise), bumps the revision and voids the approval', async () => {
    const seq = await approvedSequence(t, ws);
    const launched = await json(
      post(`/api/v1/sequences/${seq.id}/launch`, ws.owner.token, { enroll: { lead_ids: [ws.leads[0].id] } }),
    );
    await problem(
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        headers: { 'if-match': '"1"' },
        json: { name: 'Renamed' },
      }),
      409,
      'sequence_not_editable',
    );
    await json(post(`/api/v1/sequences/${seq.id}/pause`, ws.owner.token));
    await problem(
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        headers: { 'if-match': '"9"' },
        json: { name: 'Renamed' },
      }),
      412,
      'revision_mismatch',
    );
    const noHeader = await t.request(`/api/v1/sequences/${seq.id}`, {
      method: 'PATCH',
      token: ws.owner.token,
      json: { name: 'Renamed' },
    });
    expect(noHeader.status).toBe(400);
    const edited = await json(
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        headers: { 'if-match': `"${launched.sequence.revision}"` },
        json: { name: 'Renamed' },
      }),
    );
    expect(edited).toMatchObject({ name: 'Renamed', revision: 2, approval: null, status: 'paused' });
    await problem(post(`/api/v1/sequences/${seq.id}/resume`, ws.owner.token), 409, 'sequence_not_approved');
    const resubmitted = await json(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token));
    const reapproved = await json(
      post(`/api/v1/sequences/${seq.id}/approve`, ws.owner.token, { revision: resubmitted.revision }),
    );
    expect(reapproved.status).toBe('paused');
    expect((await json(post(`/api/v1/sequences/${seq.id}/resume`, ws.owner.token))).status).toBe('active');
  });

  it('refuses unknown variables and an empty window with 400 naming the field', async () => {
    const bad = await problem(
      post('/api/v1/sequences', ws.owner.token, {
        name: 'x',
        schedule: { start_hour: 10, end_hour: 9 },
        steps: [{ subject: 'Hi {{nickname}}', body: 'ok {{first_name' }],
      }),
      400,
      'validation_failed',
    );
    expect(bad.errors.map((e: any) => e.pointer)).toEqual(
      expect.arrayContaining(['/schedule/end_hour', '/steps/0/subject']),
    );
  });

  it('deletes only drafts that never launched', async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(null)), 201);
    expect(await json(t.request(`/api/v1/sequences/${seq.id}`, { method: 'DELETE', token: ws.owner.token }))).toEqual({
      id: seq.id,
      deleted: true,
    });
    const approved = await approvedSequence(t, ws);
    await problem(
      t.request(`/api/v1/sequences/${approved.id}`, { method: 'DELETE', token: ws.owner.token }),
      409,
      'sequence_not_editable',
    );
  });
});

describe('the human gate', () => {
  it('refuses approval and rejection by an API key, even an admin key, pointing to the approval URL', async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(ws.connector.id)), 201);
    const submitted = await json(post(`/api/v1/sequences/${seq.id}/submit`, ws.owner.token));
    const key = await t.createKey(ws.owner.token);
    const refused = await problem(
      post(`/api/v1/sequences/${seq.id}/approve`, key.key, { revision: submitted.revision }),
      403,
      'approval_requires_human',
    );
    expect(refused.approval_url).toBe(submitted.approval_url);
    await problem(post(`/api/v1/sequences/${seq.id}/reject`, key.key, { note: 'no' }), 403, 'approval_requires_human');
    await problem(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token: key.key,
        json: { require_human_approval: false },
      }),
      403,
      'approval_requires_human',
    );
    const rejected = await json(post(`/api/v1/sequences/${seq.id}/reject`, ws.owner.token, { note: 'Tone it down' }));
    expect(rejected).toMatchObject({ status: 'draft', approval: { decision: 'rejected', note: 'Tone it down' } });
  });

  it('lets the workspace turn the gate off (by a person), after which submitting approves at once', async () => {
    const other = await readyWorkspace(t, [
      { email: 'x@example.com', first_name: 'X', company: 'Y', custom_fields: { plan: 'p' } },
    ]);
    await json(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token: other.owner.token,
        json: { require_human_approval: false },
      }),
    );
    const key = await t.createKey(other.owner.token);
    const seq = await json(post('/api/v1/sequences', key.key, twoSteps(other.connector.id)), 201);
    expect((await json(post(`/api/v1/sequences/${seq.id}/submit`, key.key))).status).toBe('approved');
  });

  it("hides one workspace's sequences from another", async () => {
    const seq = await json(post('/api/v1/sequences', ws.owner.token, twoSteps(ws.connector.id)), 201);
    const stranger = await t.signup();
    await problem(t.request(`/api/v1/sequences/${seq.id}`, { token: stranger.token }), 404, 'not_found');
    await problem(post(`/api/v1/sequences/${seq.id}/launch`, stranger.token), 404, 'not_found');
    await problem(
      post(`/api/v1/sequences/${seq.id}/enrollments`, stranger.token, { lead_ids: [ws.leads[0].id] }),
      404,
      'not_found',
    );
    const mine = await json(post('/api/v1/sequences', stranger.token, twoSteps(null)), 201);
    const enrolled = await json(
      post(`/api/v1/sequences/${mine.id}/enrollments`, stranger.token, { lead_ids: [ws.leads[0].id] }),
    );
    expect(enrolled.results).toEqual([
      { lead_id: ws.leads[0].id, outcome: 'skipped', reason: 'not_found', detail: 'No such lead in this workspace.' },
    ]);
    expect((await json(t.request('/api/v1/sent-messages', { token: stranger.token }))).data).toEqual([]);
  });
});

describe('leads leaving', () => {
  it('stops enrollments at once when a lead is unsubscribed through the API or deleted, erasing the address from its messages', async () => {
    const local = await readyWorkspace(t);
    const seq = await approvedSequence(t, local);
    await json(
      post(`/api/v1/sequences/${seq.id}/launch`, local.owner.token, {
        enroll: { lead_ids: local.leads.map((l) => l.id) },
      }),
    );
    await json(post(`/api/v1/leads/${local.leads[0].id}/unsubscribe`, local.owner.token));
    await json(t.request(`/api/v1/leads/${local.leads[1].id}`, { method: 'DELETE', token: local.owner.token }));
    const enrollments = await json(t.request(`/api/v1/sequences/${seq.id}/enrollments`, { token: local.owner.token }));
    const reasons = enrollments.data.map((e: any) => [e.status, e.stop_reason]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['stopped', 'unsubscribed'],
        ['stopped', 'lead_deleted'],
        ['active', null],
      ]),
    );
    expect(enrollments.data.find((e: any) => e.stop_reason === 'lead_deleted')).toMatchObject({
      lead_id: null,
      email: null,
    });
  });
});
