// The whole connector flow in sandbox mode, over REST, as a new user on a fresh machine lives it: no
// Google client configured, so the service plays Google. The test plays the human over plain HTTP: it
// opens the authorization URL, submits Allow (or Deny) on the sandbox consent page, follows the
// redirect to the callback; then get_connector (woken, not polled) sees `connected`, send_test_email
// sends through the sandbox Gmail API and list_sandbox_messages shows the parsed message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from './listen.ts';
import { playHuman, type Connector } from './human.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ env: { OPERATION_WAIT_RECHECK_MS: '600000' } }));
  owner = await t.signup();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function start(token = owner.token, body: Record<string, unknown> = { provider: 'gmail' }): Promise<Connector> {
  const res = await t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as Connector;
}

describe('connecting Gmail in sandbox mode', () => {
  it('starts pending consent with a sandbox consent link and plain-words next step', async () => {
    const connector = await start();
    expect(connector).toMatchObject({
      provider: 'gmail',
      status: 'pending_consent',
      mode: 'sandbox',
      account_email: null,
    });
    expect(connector.id).toMatch(/^conn_/);
    expect(connector.scopes_requested).toEqual(['openid', 'email', 'https://www.googleapis.com/auth/gmail.send']);
    const url = new URL(connector.authorization_url as string);
    expect(url.origin).toBe(server.url);
    expect(url.pathname).toBe('/sandbox/google/o/oauth2/v2/auth');
    for (const [k, v] of Object.entries({
      response_type: 'code',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      login_hint: owner.email,
    })) {
      expect(url.searchParams.get(k)).toBe(v);
    }
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/oauth/callback`);
    expect(connector.next_action).toContain(connector.authorization_url);
    expect(connector.next_action).toMatch(/get_connector.*wait_seconds/);
    expect(Date.parse(connector.authorization_expires_at as string) - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);
  });

  it('connects when the human allows, wakes a waiting get_connector, and sends a test email into the sandbox mailbox', async () => {
    const connector = await start();
    const waiting = t.request(`/api/v1/connectors/${connector.id}?wait_seconds=30`, { token: owner.token });
    const page = await playHuman(connector.authorization_url as string, { email: 'ada@sandbox.example' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('SANDBOX');
    expect(page.html).toContain('ada@sandbox.example');
    const woke = (await (await waiting).json()) as Connector;
    expect(woke).toMatchObject({
      id: connector.id,
      status: 'connected',
      account_email: 'ada@sandbox.example',
      authorization_url: null,
      next_action: null,
    });
    expect(woke.scopes_granted).toEqual(
      expect.arrayContaining(['email', 'https://www.googleapis.com/auth/gmail.send']),
    );

    const sent = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'grace@example.com' },
    });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({
      connector_id: connector.id,
      mode: 'sandbox',
      from: 'ada@sandbox.example',
      to: 'grace@example.com',
    });

    const inbox = (await (
      await t.request(`/api/v1/sandbox/messages?connector_id=${connector.id}`, { token: owner.token })
    ).json()) as { data: any[] };
    expect(inbox.data).toHaveLength(1);
    expect(inbox.data[0]).toMatchObject({
      mode: 'sandbox',
      account_email: 'ada@sandbox.example',
      to: 'grace@example.com',
    });
    expect(inbox.data[0].subject).toContain('[sandbox]');
    expect(inbox.data[0].text).toContain(connector.id);
    expect(inbox.data[0].html).toContain('<p>');

    const events = (await (await t.request('/api/v1/events?type=connector.*', { token: owner.token })).json()) as {
      data: any[];
    };
    expect(events.data.map((e) => e.type)).toContain('connector.connected');
    expect(JSON.stringify(events)).not.toMatch(/ya29|1\/\/|access_token|refresh_token/);
  });

  it('fails the connector when the human denies, and a fresh link for the same connector then connects it', async () => {
    const connector = await start();
    const page = await playHuman(connector.authorization_url as string, { email: 'ada@sandbox.example', deny: true });
    expect(page.html).toContain('Access was not allowed');
    const failed = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'consent_denied', authorization_url: null });
    expect(failed.next_action).toContain('reconnect_connector_id');
    const again = await start(owner.token, { provider: 'gmail', reconnect_connector_id: connector.id });
    expect(again.id).toBe(connector.id);
    expect(again.status).toBe('pending_consent');
    await playHuman(again.authorization_url as string, { email: 'ada@sandbox.example' });
    const done = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(done.status).toBe('connected');
  });

  it('refuses a consent that left out the send permission, keeping nothing', async () => {
    const connector = await start();
    const page = await playHuman(connector.authorization_url as string, {
      email: 'ada@sandbox.example',
      grant: ['openid', 'email'],
    });
    expect(page.status).toBe(400);
    expect(page.html).toContain('Permission to send email was not granted');
    const row = await t.db.sql`select status, failure_reason, tokens_sealed from connectors where id = ${connector.id}`;
    expect(row[0]).toMatchObject({ status: 'failed', failure_reason: 'scope_missing', tokens_sealed: null });
  });

  it('answers send_test_email on a connector waiting for consent with 409 and the way to fix it', async () => {
    const connector = await start();
    const res = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'x@example.com' },
    });
    expect(res.status).toBe(409);
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe('connector_not_connected');
    expect(problem.detail).toContain(connector.authorization_url as string);
  });

  it('revokes: access withdrawn at the sandbox provider, tokens deleted, connector.revoked', async () => {
    const connector = await start();
    await playHuman(connector.authorization_url as string, { email: 'rev@sandbox.example' });
    const res = await t.request(`/api/v1/connectors/${connector.id}`, { method: 'DELETE', token: owner.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'revoked' });
    const [row] = await t.db.sql`select tokens_sealed from connectors where id = ${connector.id}`;
    expect(row.tokens_sealed).toBeNull();
    const grants = await t.db.sql`select revoked_at from sandbox_grants where account_email = 'rev@sandbox.example'`;
    expect(grants.every((g) => g.revoked_at !== null)).toBe(true);
    const sent = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'x@example.com' },
    });
    expect(sent.status).toBe(409);
  });

  it('keeps connectors and sandbox mail to their workspace', async () => {
    const connector = await start();
    await playHuman(connector.authorization_url as string, { email: 'iso@sandbox.example' });
    await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'x@example.com' },
    });
    const stranger = await t.signup();
    expect((await t.request(`/api/v1/connectors/${connector.id}`, { token: stranger.token })).status).toBe(404);
    expect(
      (
        await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
          method: 'POST',
          token: stranger.token,
          json: { to: 'x@example.com' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request(`/api/v1/connectors/${connector.id}`, { method: 'DELETE', token: stranger.token })).status,
    ).toBe(404);
    expect(
      (
        await t.request('/api/v1/connectors/oauth', {
          method: 'POST',
          token: stranger.token,
          json: { provider: 'gmail', reconnect_connector_id: connector.id },
        })
      ).status,
    ).toBe(404);
    const theirs = (await (await t.request('/api/v1/sandbox/messages', { token: stranger.token })).json()) as {
      data: unknown[];
    };
    expect(theirs.data).toEqual([]);
  });

  it('stores the tokens sealed: no token appears in the database in clear, in any response or in an event', async () => {
    const connector = await start();
    const callback = await playHuman(connector.authorization_url as string, { email: 'seal@sandbox.example' });
    expect(callback.status).toBe(200);
    const [row] = await t.db.sql<
      { tokens_sealed: Buffer }[]
    >`select tokens_sealed from connectors where id = ${connector.id}`;
    const text = Buffer.from(row.tokens_sealed).toString('latin1');
    expect(text).not.toMatch(/ya29\.sandbox|1\/\/sandbox|access_token/);
    const listed = await (await t.request('/api/v1/connectors', { token: owner.token })).text();
    expect(listed).not.toMatch(/ya29|1\/\/|token"/);
  });
});
