// Webhook endpoints through the real app with jobs running: events are delivered signed per
// Standard Webhooks (checked by the published verifier), retried on the schedule, and an endpoint
// that keeps failing is disabled with an event. The receiver is on loopback, so these apps turn the
// OUTBOUND_ALLOW_PRIVATE switch on; the refusals without it are tested on an app that keeps it off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const env = { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1', OPERATION_WAIT_RECHECK_MS: '1000' };

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env });
});
afterAll(async () => t?.close());
afterEach(async () => receiver?.close());

interface Endpoint {
  id: string;
  url: string;
  status: string;
  disabled_reason: string | null;
  failure_count: number;
  secret?: string;
}

async function createEndpoint(token: string, body: Record<string, unknown>): Promise<Response> {
  return t.request('/api/v1/webhook-endpoints', { method: 'POST', token, json: body });
}

async function setUp(eventTypes = ['api_key.*']): Promise<{ admin: SignupResult; endpoint: Endpoint }> {
  receiver = await startReceiver();
  const admin = await t.signup();
  const res = await createEndpoint(admin.token, {
    url: receiver.url,
    event_types: eventTypes,
    description: 'test receiver',
  });
  expect(res.status).toBe(201);
  const endpoint = (await res.json()) as Endpoint;
  receiver.useSecret(endpoint.secret as string);
  return { admin, endpoint };
}

async function deliveries(token: string, endpointId: string) {
  const res = await t.request(`/api/v1/webhook-endpoints/${endpointId}/deliveries`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: any[] }).data;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook endpoints', () => {
  it('shows the signing secret once and stores it sealed', async () => {
    const { admin, endpoint } = await setUp();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = (await (await t.request('/api/v1/webhook-endpoints', { token: admin.token })).json()) as {
      data: Endpoint[];
    };
    expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const [row] = await t.db.sql<
      { secret_sealed: Buffer }[]
    >`select secret_sealed from webhook_endpoints where id = ${endpoint.id}`;
    expect(Buffer.from(row.secret_sealed).toString('latin1')).not.toContain((endpoint.secret as string).slice(6, 20));
  });

  it('delivers a subscribed event signed so that the Standard Webhooks verifier accepts it', async () => {
    const { admin, endpoint } = await setUp();
    const key = await t.createKey(admin.token, 'hooked');
    const [got] = await receiver.waitFor(1);
    expect(got.verified).toBeDefined();
    expect(got.verified).toMatchObject({
      type: 'api_key.created',
      workspace_id: admin.workspaceId,
      data: { id: key.id },
    });
    expect(got.headers['webhook-id']).toBe(got.verified?.id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,/);
    expect(got.body).not.toContain(key.key);
    const [delivery] = await eventually(
      () => deliveries(admin.token, endpoint.id),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({
      event_type: 'api_key.created',
      attempts: 1,
      last_status_code: 200,
      message_id: got.verified?.id,
    });
  });

  it('does not deliver events of types the endpoint did not subscribe to', async () => {
    const { admin } = await setUp(['member.added']);
    await t.createKey(admin.token, 'not hooked');
    const res = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: admin.token,
      json: { email: `x.${Date.now()}@example.com`, role: 'member' },
    });
    expect(res.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toEqual([]);
  });

  it('retries a failed delivery on the schedule with the same webhook-id until it succeeds', async () => {
    const { admin, endpoint } = await setUp();
    receiver.answer(500, 503);
    await t.createKey(admin.token, 'retried');
    const got = await receiver.waitFor(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);
    const [delivery] = await eventually(
      () => deliveries(admin.token, endpoint.id),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(delivery.attempts).toBe(3);
    expect(delivery.attempt_log).toEqual([
      { attempt: 1, status_code: 500, error: expect.stringContaining('500'), attempted_at: expect.any(String) },
      { attempt: 2, status_code: 503, error: expect.stringContaining('503'), attempted_at: expect.any(String) },
      { attempt: 3, status_code: 200, error: null, attempted_at: delivery.last_attempt_at },
    ]);
    const [now] = (
      (await (await t.request('/api/v1/webhook-endpoints', { token: admin.token })).json()) as { data: Endpoint[] }
    ).data;
    expect(now).toMatchObject({ status: 'enabled', failure_count: 0 });
  });

  it('disables an endpoint whose every attempt failed for the whole schedule, with a webhook_endpoint.disabled event', async () => {
    const { admin, endpoint } = await setUp();
    receiver.answer(500, 500, 500);
    await t.createKey(admin.token, 'doomed');
    const [delivery] = await eventually(
      () => deliveries(admin.token, endpoint.id),
      (d) => d[0]?.status === 'failed',
    );
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 500 });
    const byStatus = async (query: string) =>
      (await t.request(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries${query}`, { token: admin.token })).json();
    expect((await byStatus('?status=failed,cancelled')).data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
    expect((await byStatus('?status=succeeded')).data).toEqual([]);
    expect((await byStatus('?status=lost')).errors).toEqual([
      {
        field: 'query.status',
        code: 'invalid_value',
        message: 'has "lost", which is not one of pending, succeeded, failed, cancelled',
      },
    ]);
    const [disabled] = (
      (await (await t.request('/api/v1/webhook-endpoints', { token: admin.token })).json()) as { data: Endpoint[] }
    ).data;
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'failing', failure_count: 3 });
    const events = (await (
      await t.request('/api/v1/events?type=webhook_endpoint.disabled', { token: admin.token })
    ).json()) as { data: any[] };
    expect(events.data).toHaveLength(1);
    expect(events.data[0]).toMatchObject({
      actor: { type: 'system', id: null },
      data: { id: endpoint.id, status: 'disabled' },
    });
    // Nothing more goes to a disabled endpoint ...
    await t.createKey(admin.token, 'after');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(3);
    // ... until an admin enables it again.
    const enabled = await t.request(`/api/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      token: admin.token,
      json: { enabled: true },
    });
    expect(await enabled.json()).toMatchObject({ status: 'enabled', disabled_reason: null, failure_count: 0 });
    await t.createKey(admin.token, 'again');
    await receiver.waitFor(4);
  });

  it('cancels pending retries when the endpoint is deleted', async () => {
    const { admin, endpoint } = await setUp();
    receiver.answer(500);
    await t.createKey(admin.token, 'orphan');
    await receiver.waitFor(1);
    await eventually(
      () => deliveries(admin.token, endpoint.id),
      (d) => d[0]?.attempts === 1,
    );
    const res = await t.request(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE', token: admin.token });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toHaveLength(1);
    const [row] = await t.db.sql`select status from webhook_deliveries where endpoint_id = ${endpoint.id}`;
    expect(row.status).toBe('cancelled');
    expect(
      (await t.request(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { token: admin.token })).status,
    ).toBe(404);
  });
});

describe('send_test_webhook', () => {
  it('answers 202 with an operation that succeeds once the endpoint accepts the signed test message', async () => {
    const { admin, endpoint } = await setUp();
    const res = await t.request(`/api/v1/webhook-endpoints/${endpoint.id}/test`, {
      method: 'POST',
      token: admin.token,
    });
    expect(res.status).toBe(202);
    const op = (await res.json()) as { id: string; status: string; resource: { type: string; id: string } };
    expect(res.headers.get('location')).toBe(`/api/v1/operations/${op.id}`);
    expect(op).toMatchObject({ status: 'queued', resource: { type: 'webhook_delivery' } });
    let current = op;
    while (!['succeeded', 'failed'].includes(current.status)) {
      current = (await (
        await t.request(`${res.headers.get('location')}?wait_seconds=20`, { token: admin.token })
      ).json()) as typeof op;
    }
    expect(current.status).toBe('succeeded');
    const [got] = await receiver.waitFor(1);
    expect(got.verified).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });
  });

  it('fails the operation with a problem naming what the endpoint answered', async () => {
    const { admin, endpoint } = await setUp();
    receiver.answer(500);
    const res = await t.request(`/api/v1/webhook-endpoints/${endpoint.id}/test`, {
      method: 'POST',
      token: admin.token,
    });
    const op = (await res.json()) as { id: string };
    let current: any = op;
    while (!['succeeded', 'failed'].includes(current.status)) {
      current = await (await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: admin.token })).json();
    }
    expect(current.status).toBe('failed');
    expect(current.error).toMatchObject({ code: 'webhook_delivery_failed', status: 502 });
    expect(current.error.detail).toContain('500');
    // A test does not count towards disabling the endpoint.
    const [now] = (
      (await (await t.request('/api/v1/webhook-endpoints', { token: admin.token })).json()) as { data: Endpoint[] }
    ).data;
    expect(now).toMatchObject({ status: 'enabled', failure_count: 0 });
  });
});

describe('access', () => {
  it('is admin-only and scoped to the workspace', async () => {
    const { admin, endpoint } = await setUp();
    const invited = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: admin.token,
      json: { email: `m.${Date.now()}@example.com`, role: 'member' },
    });
    const { token } = (await invited.json()) as { token: string };
    const accepted = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token, name: 'M', password: 'correct horse battery' },
    });
    const member = ((await accepted.json()) as { login: { access_token: string } }).login.access_token;
    expect((await t.request('/api/v1/webhook-endpoints', { token: member })).status).toBe(403);
    expect((await createEndpoint(member, { url: receiver.url, event_types: ['*'] })).status).toBe(403);
    const stranger = await t.signup();
    expect(
      (await t.request(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE', token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await t.request(`/api/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST', token: stranger.token }))
        .status,
    ).toBe(404);
  });

  it('refuses malformed event types', async () => {
    receiver = await startReceiver();
    const admin = await t.signup();
    const res = await createEndpoint(admin.token, { url: receiver.url, event_types: ['API KEY created'] });
    expect(res.status).toBe(400);
  });
});

describe('with the private-address switch off (the default)', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ jobs: 'work', env: { WEBHOOK_RETRY_SCHEDULE: '' } });
  });
  afterAll(async () => strict?.close());

  it.each([
    'http://127.0.0.1:9/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::127.0.0.1]/hook',
    'http://169.254.169.254/latest',
    'ftp://example.com/x',
    'http://user:pw@example.com/',
  ])('refuses to create an endpoint at %s with a 422 naming the reason', async (url) => {
    const admin = await strict.signup();
    const res = await strict.request('/api/v1/webhook-endpoints', {
      method: 'POST',
      token: admin.token,
      json: { url, event_types: ['*'] },
    });
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { code: string; errors: { field: string; code: string }[] };
    expect(problem.code).toBe('url_not_allowed');
    expect(problem.errors[0].field).toBe('url');
  });

  it('refuses at delivery a host name that resolves to loopback, and records why', async () => {
    receiver = await startReceiver();
    const admin = await strict.signup();
    const port = new URL(receiver.url).port;
    const res = await strict.request('/api/v1/webhook-endpoints', {
      method: 'POST',
      token: admin.token,
      json: { url: `http://localhost:${port}/hooks`, event_types: ['*'] },
    });
    expect(res.status).toBe(201);
    const endpoint = (await res.json()) as Endpoint;
    const test = (await (
      await strict.request(`/api/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST', token: admin.token })
    ).json()) as { id: string };
    let op: any = test;
    while (!['succeeded', 'failed'].includes(op.status)) {
      op = await (await strict.request(`/api/v1/operations/${test.id}?wait_seconds=20`, { token: admin.token })).json();
    }
    expect(op.status).toBe('failed');
    expect(op.error.detail).toContain('address_not_allowed');
    expect(receiver.received).toEqual([]);
  });
});
