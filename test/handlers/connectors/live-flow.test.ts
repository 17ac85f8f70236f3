// The live code path (a Google client configured) against a strict local fake of Google over real
// HTTP: the flow, refresh before expiry, invalid_grant expiring the connector, revocation at the
// provider, and no token anywhere it should not be. A refused access token refreshed once is the
// mailbox's own behaviour (gmail-mailbox.test.ts).
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, SignupResult } from '../../helpers/app.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { listenOnReservedPort } from './listen.ts';
import type { Connector } from './human.ts';

let google: FakeGoogle;
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let now = new Date();
const clock = { now: () => now };
const logLines: string[] = [];

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  const sink = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });
  ({ app: t, server } = await listenOnReservedPort({
    clock,
    env: { ...google.env(), LOG_LEVEL: 'debug' },
    log: pino({ level: 'debug' }, sink),
  }));
  redirect = `${server.url}/oauth/callback`;
  owner = await t.signup();
  // The clock moves past the JWT's lifetime below; an API key does not expire.
  owner = { ...owner, token: (await t.createKey(owner.token, 'live connector tests')).key };
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await google?.close();
});

async function connect(
  email: string,
  grant?: string[],
): Promise<{ connector: Connector; page: { status: number; html: string } }> {
  const res = await t.request('/api/v1/connectors/oauth', {
    method: 'POST',
    token: owner.token,
    json: { provider: 'gmail' },
  });
  expect(res.status).toBe(201);
  const started = (await res.json()) as Connector;
  expect(started.mode).toBe('live');
  expect(new URL(started.authorization_url as string).origin).toBe(google.url);
  const callback = await google.consent(started.authorization_url as string, { email, grant });
  const page = await fetch(callback);
  const connector = (await (
    await t.request(`/api/v1/connectors/${started.id}`, { token: owner.token })
  ).json()) as Connector;
  return { connector, page: { status: page.status, html: await page.text() } };
}

const sendTest = (id: string) =>
  t.request(`/api/v1/connectors/${id}/test-email`, {
    method: 'POST',
    token: owner.token,
    json: { to: 'lead@example.com' },
  });

describe('the live Gmail connector against a fake Google', () => {
  it('connects with PKCE and the client secret, and sends a real MIME message through the Gmail API', async () => {
    const { connector, page } = await connect('owner@gmail.example');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('SANDBOX');
    expect(connector).toMatchObject({ status: 'connected', mode: 'live', account_email: 'owner@gmail.example' });
    const res = await sendTest(connector.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ mode: 'live', from: 'owner@gmail.example', to: 'lead@example.com' });
    const [message] = google.sent.slice(-1);
    expect(message.parsed.from?.text).toBe('owner@gmail.example');
    expect(message.parsed.to && !Array.isArray(message.parsed.to) ? message.parsed.to.text : '').toBe(
      'lead@example.com',
    );
    expect(message.parsed.text).toContain(connector.id);
    expect(google.refusals).toEqual([]);
  });

  it('refreshes the access token shortly before it expires, once', async () => {
    const { connector } = await connect('refresh@gmail.example');
    const before = google.refreshes;
    now = new Date(now.getTime() + 58 * 60 * 1000);
    expect((await sendTest(connector.id)).status).toBe(200);
    expect(google.refreshes).toBe(before + 1);
    expect((await sendTest(connector.id)).status).toBe(200);
    expect(google.refreshes).toBe(before + 1);
    now = new Date();
  });

  it('expires the connector on invalid_grant, with an event and a 409 saying how to reconnect', async () => {
    const { connector } = await connect('expired@gmail.example');
    google.expireAccessTokens();
    google.failRefreshWithInvalidGrant();
    const res = await sendTest(connector.id);
    expect(res.status).toBe(409);
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe('connector_not_connected');
    expect(problem.detail).toContain('reconnect_connector_id');
    const after = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(after).toMatchObject({ status: 'expired', failure_reason: 'refresh_token_invalid' });
    const events = (await (
      await t.request('/api/v1/events?type=connector.expired', { token: owner.token })
    ).json()) as { data: any[] };
    expect(events.data.some((e) => e.data.id === connector.id)).toBe(true);
    // Whatever depends on it stops with that reason instead of retrying.
    expect((await sendTest(connector.id)).status).toBe(409);
  });

  it('refuses a consent without the send scope and gives the grant back to Google', async () => {
    const revokedBefore = google.revoked.length;
    const { connector, page } = await connect('narrow@gmail.example', ['openid', 'email']);
    expect(page.status).toBe(400);
    expect(connector).toMatchObject({ status: 'failed', failure_reason: 'scope_missing' });
    expect(google.revoked.length).toBe(revokedBefore + 1);
  });

  it('revokes at Google on revoke_connector', async () => {
    const { connector } = await connect('bye@gmail.example');
    const revokedBefore = google.revoked.length;
    const res = await t.request(`/api/v1/connectors/${connector.id}`, { method: 'DELETE', token: owner.token });
    expect(res.status).toBe(200);
    expect(google.revoked.length).toBe(revokedBefore + 1);
  });

  it('never writes a token or the client secret to the log', () => {
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toMatch(/ya29\.|1\/\/0|GOCSPX-|4\/0A/);
    expect(log).not.toContain(google.clientSecret);
  });
});
