// What webinars refuse, and what they keep apart: another workspace's ids (404 everywhere), bad input,
// capacity, registration after the start, suppressed addresses, and repeated creates with one key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json, readyWorkspace, relogin, type Workspace } from '../sequences/sequence-fixtures.ts';
import {
  addWebinarRegistrants,
  sandboxMail,
  scheduleWebinar,
  sendMail,
  START,
  webinarBody,
} from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  ws = await readyWorkspace(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('webinar isolation', () => {
  it("answers 404 for every operation on another workspace's webinar and registrant", async () => {
    const webinar = await scheduleWebinar(t, ws);
    const { results } = await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'kept@example.com' }]);
    const other = await readyWorkspace(t, []);
    const token = other.owner.token;
    const base = `/api/v1/webinars/${webinar.id}`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['PATCH', base, { title: 'mine now' }],
      ['POST', `${base}/cancel`, undefined],
      ['GET', `${base}/registrants`, undefined],
      ['POST', `${base}/registrants`, { registrants: [{ email: 'x@example.com' }] }],
      ['DELETE', `${base}/registrants/${results[0].registrant_id}`, undefined],
    ] as const) {
      const problem = await json(t.request(path, { method, token, json: body }), 404);
      expect(problem.code, `${method} ${path}`).toBe('not_found');
    }
    const theirs = await scheduleWebinar(t, other);
    await json(
      t.request(`/api/v1/webinars/${theirs.id}/registrants/${results[0].registrant_id}`, { method: 'DELETE', token }),
      404,
    );
    expect((await json(t.request('/api/v1/webinars', { token }))).data.map((w: any) => w.id)).toEqual([theirs.id]);
    expect((await json(t.request(base, { token: ws.owner.token }))).status).toBe('scheduled');
  });
});

describe('schedule_webinar', () => {
  it('refuses with 409 connector_not_connected when the workspace has no connected Gmail', async () => {
    const bare = await t.signup();
    const problem = await json(
      t.request('/api/v1/webinars', { method: 'POST', token: bare.token, json: webinarBody() }),
      409,
    );
    expect(problem.code).toBe('connector_not_connected');
    expect(problem.detail).toMatch(/start_connector_oauth/);
  });

  it('refuses a start in the past, an unknown time zone and a meeting link that is not https', async () => {
    for (const [field, value] of [
      ['start_at', '2026-11-01T10:00:00Z'],
      ['timezone', 'Mars/Olympus'],
      ['meeting_url', 'http://meet.example/x'],
    ] as const) {
      const problem = await json(
        t.request('/api/v1/webinars', { method: 'POST', token: ws.owner.token, json: webinarBody({ [field]: value }) }),
        400,
      );
      expect(
        problem.errors.map((e: any) => e.field),
        field,
      ).toContain(field);
    }
  });

  it('replays the first answer for a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'b0b5d1c2-4c1e-4b8a-9f57-3f1f0e6c9a11' };
    const first = await json(
      t.request('/api/v1/webinars', {
        method: 'POST',
        token: ws.owner.token,
        headers,
        json: webinarBody({ title: 'Once' }),
      }),
      201,
    );
    const again = await json(
      t.request('/api/v1/webinars', {
        method: 'POST',
        token: ws.owner.token,
        headers,
        json: webinarBody({ title: 'Once' }),
      }),
      201,
    );
    expect(again.id).toBe(first.id);
    const all = await json(t.request('/api/v1/webinars?limit=100', { token: ws.owner.token }));
    expect(all.data.filter((w: any) => w.title === 'Once')).toHaveLength(1);
  });
});

describe('add_webinar_registrants', () => {
  it('skips past the capacity with reason full, and adds again once a seat is freed', async () => {
    const webinar = await scheduleWebinar(t, ws, { capacity: 2 });
    const first = await addWebinarRegistrants(t, ws, webinar.id, [
      { email: 'a@example.com' },
      { email: 'b@example.com' },
      { email: 'c@example.com' },
    ]);
    expect(first.results.map((r: any) => r.reason ?? r.status)).toEqual(['added', 'added', 'full']);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}/registrants/${first.results[0].registrant_id}`, {
        method: 'DELETE',
        token: ws.owner.token,
      }),
    );
    expect((await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'c@example.com' }])).added).toBe(1);
  });

  it('skips unsubscribed leads and suppressed addresses, and mails nobody suppressed', async () => {
    const webinar = await scheduleWebinar(t, ws);
    await json(t.request(`/api/v1/leads/${ws.leads[2].id}/unsubscribe`, { method: 'POST', token: ws.owner.token }));
    const result = await addWebinarRegistrants(t, ws, webinar.id, [
      { lead_id: ws.leads[2].id },
      { email: 'nobody@example.com' },
      { email: 'fine@example.com' },
    ]);
    expect(result.results.map((r: any) => r.reason ?? r.status)).toEqual(['suppressed', 'suppressed', 'added']);
  });

  it('refuses more than 100 items and an item with both email and lead_id is skipped as invalid', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const many = Array.from({ length: 101 }, (_, i) => ({ email: `p${i}@example.com` }));
    await json(
      t.request(`/api/v1/webinars/${webinar.id}/registrants`, {
        method: 'POST',
        token: ws.owner.token,
        json: { registrants: many },
      }),
      400,
    );
    const mixed = await addWebinarRegistrants(t, ws, webinar.id, [
      { email: 'x@example.com', lead_id: ws.leads[0].id },
      {},
    ]);
    expect(mixed.results.map((r: any) => r.reason)).toEqual(['invalid', 'invalid']);
  });

  it('skips as invalid an address that only looks like one, as leads do', async () => {
    const webinar = await scheduleWebinar(t, ws, { title: 'Address check' });
    const looksLike = [
      '<img/src=x/onerror=alert(9)>@x.io',
      'a..b@example.com',
      'a@b@example.com',
      'fine.person@example.com',
    ];
    const result = await addWebinarRegistrants(
      t,
      ws,
      webinar.id,
      looksLike.map((email) => ({ email })),
    );
    expect(result.results.map((r: any) => r.reason ?? r.status)).toEqual(['invalid', 'invalid', 'invalid', 'added']);
  });

  it('sends no reminder to a removed registrant', async () => {
    const webinar = await scheduleWebinar(t, ws, { title: 'Removal check' });
    const { results } = await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'gone@example.com' }]);
    await sendMail(t);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}/registrants/${results[0].registrant_id}`, {
        method: 'DELETE',
        token: ws.owner.token,
      }),
    );
    now = new Date(new Date(START).getTime() - 3_600_000 + 60_000);
    await sendMail(t);
    const mine = (await sandboxMail(t, ws.owner.workspaceId)).filter((m) => m.to === 'gone@example.com');
    expect(mine.map((m) => m.subject)).toEqual(["You're registered: Removal check"]);
  });

  it('refuses with 409 webinar_closed once the webinar has started', async () => {
    now = new Date(new Date(START).getTime() + 60_000);
    await relogin(t, ws);
    const problem = await json(t.request('/api/v1/webinars?limit=1', { token: ws.owner.token }));
    const started = problem.data[0];
    const refused = await json(
      t.request(`/api/v1/webinars/${started.id}/registrants`, {
        method: 'POST',
        token: ws.owner.token,
        json: { registrants: [{ email: 'late@example.com' }] },
      }),
      409,
    );
    expect(refused.code).toBe('webinar_closed');
  });
});

describe('list_webinars', () => {
  it('filters by several statuses given comma-separated, and refuses one outside the enum naming every status', async () => {
    now = new Date('2026-11-24T10:00:00Z');
    const own = await readyWorkspace(t, []);
    const kept = await scheduleWebinar(t, own);
    const cancelled = await scheduleWebinar(t, own);
    await json(t.request(`/api/v1/webinars/${cancelled.id}/cancel`, { method: 'POST', token: own.owner.token }));
    const ids = async (query: string) =>
      (await json(t.request(`/api/v1/webinars${query}`, { token: own.owner.token }))).data.map((w: any) => w.id);
    expect(await ids('?status=cancelled')).toEqual([cancelled.id]);
    // Both were created at the test clock's one instant: the order between them is the ids'.
    expect((await ids('?status=scheduled,cancelled')).sort()).toEqual([cancelled.id, kept.id].sort());
    const problem = await json(t.request('/api/v1/webinars?status=scheduled,done', { token: own.owner.token }), 400);
    expect(problem.errors).toEqual([
      { field: 'query.status', code: 'invalid_value', message: 'has "done", which is not one of scheduled, cancelled' },
    ]);
  });
});
