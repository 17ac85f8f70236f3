// Every way the OAuth callback refuses, in sandbox mode over real HTTP: each shows a page saying what
// happened and what to do, stores no token, and fails the connector with a reason where one is known
// and still waiting for that flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { consentForm, playHuman, type Connector } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let now = new Date();
const clock = { now: () => now };

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ clock }));
  owner = await t.signup();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function start(body: Record<string, unknown> = { provider: 'gmail' }): Promise<Connector> {
  const res = await t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as Connector;
}

/** Consents in the sandbox and returns the callback URL without opening it. */
async function callbackUrlFor(connector: Connector): Promise<string> {
  const consent = await fetch(connector.authorization_url as string);
  const html = await consent.text();
  const decided = await fetch(new URL('/sandbox/google/o/oauth2/v2/auth', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: consentForm(html, { email: 'cb@sandbox.example' }).toString(),
    redirect: 'manual',
  });
  return decided.headers.get('location') as string;
}

const open = async (url: string) => {
  const res = await fetch(url);
  return {
    status: res.status,
    html: await res.text(),
    type: res.headers.get('content-type'),
    csp: res.headers.get('content-security-policy'),
  };
};
const connectorNow = async (id: string) =>
  (await (await t.request(`/api/v1/connectors/${id}`, { token: owner.token })).json()) as Connector;
const tokensOf = async (id: string) =>
  (await t.db.sql`select tokens_sealed from connectors where id = ${id}`)[0].tokens_sealed;

describe('the OAuth callback refuses', () => {
  it('a request without state, as an HTML page with a strict CSP', async () => {
    const page = await open(`${server.url}/oauth/callback?code=abc`);
    expect(page.status).toBe(400);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.html).toContain('This link is incomplete');
  });

  it('a state this service never issued', async () => {
    const page = await open(`${server.url}/oauth/callback?state=forged&code=abc`);
    expect(page.status).toBe(400);
    expect(page.html).toContain('This link was not issued here');
  });

  it('a replayed callback (the state is single-use), leaving the connection made by the first', async () => {
    const connector = await start();
    const url = await callbackUrlFor(connector);
    expect((await open(url)).status).toBe(200);
    const replay = await open(url);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('already used');
    expect((await connectorNow(connector.id)).status).toBe('connected');
  });

  it('an expired state, failing the connector with consent_expired', async () => {
    const connector = await start();
    const url = await callbackUrlFor(connector);
    now = new Date(now.getTime() + 11 * 60 * 1000);
    try {
      const page = await open(url);
      expect(page.status).toBe(400);
      expect(page.html).toContain('expired');
    } finally {
      now = new Date();
    }
    expect(await connectorNow(connector.id)).toMatchObject({ status: 'failed', failure_reason: 'state_expired' });
    expect(await tokensOf(connector.id)).toBeNull();
  });

  it('the link of a superseded flow once a fresh link was issued for the connector', async () => {
    const first = await start();
    const oldUrl = await callbackUrlFor(first);
    const fresh = await start({ provider: 'gmail', reconnect_connector_id: first.id });
    const page = await open(oldUrl);
    expect(page.status).toBe(400);
    expect(page.html).toContain('no longer current');
    expect(await connectorNow(first.id)).toMatchObject({
      status: 'pending_consent',
      authorization_url: fresh.authorization_url,
    });
    expect((await playHuman(fresh.authorization_url as string, { email: 'fresh@sandbox.example' })).status).toBe(200);
  });

  it('a code the provider will not exchange, failing the connector with token_exchange_failed', async () => {
    const connector = await start();
    const url = new URL(await callbackUrlFor(connector));
    url.searchParams.set('code', `${url.searchParams.get('code')}tampered`);
    const page = await open(url.href);
    expect(page.status).toBe(502);
    expect(page.html).toContain('could not be completed');
    expect(await connectorNow(connector.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'token_exchange_failed',
    });
    expect(await tokensOf(connector.id)).toBeNull();
  });

  it('a provider error other than a denial, failing the connector with provider_error', async () => {
    const connector = await start();
    const state = new URL(connector.authorization_url as string).searchParams.get('state');
    const page = await open(`${server.url}/oauth/callback?state=${state}&error=server_error`);
    expect(page.status).toBe(400);
    expect(await connectorNow(connector.id)).toMatchObject({ status: 'failed', failure_reason: 'provider_error' });
  });
});

describe('the sandbox provider is as strict as Google', () => {
  it('refuses an authorization request with another redirect URI or without PKCE', async () => {
    const connector = await start();
    const bad = new URL(connector.authorization_url as string);
    bad.searchParams.set('redirect_uri', 'https://evil.example/callback');
    expect((await open(bad.href)).html).toContain('redirect_uri_mismatch');
    const noPkce = new URL(connector.authorization_url as string);
    noPkce.searchParams.delete('code_challenge');
    expect((await open(noPkce.href)).status).toBe(400);
  });

  it('refuses a consent form it did not render (CSRF)', async () => {
    const connector = await start();
    const consent = await (await fetch(connector.authorization_url as string)).text();
    const form = consentForm(consent, { email: 'csrf@sandbox.example' });
    form.set('csrf', 'forged');
    const res = await fetch(new URL('/sandbox/google/o/oauth2/v2/auth', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
  });

  it('refuses a token request without the right verifier, client secret or redirect URI, and a reused code', async () => {
    const connector = await start();
    const code = new URL(await callbackUrlFor(connector)).searchParams.get('code') as string;
    const token = (fields: Record<string, string>) =>
      fetch(`${server.url}/sandbox/google/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const base = {
      grant_type: 'authorization_code',
      code,
      client_id: 'service-mcp-sandbox.apps.sandbox',
      redirect_uri: `${server.url}/oauth/callback`,
    };
    expect((await token({ ...base, client_secret: 'wrong', code_verifier: 'x'.repeat(43) })).status).toBe(401);
    const [secretRow] = [t.deps.connectors.gmail.clientSecret];
    const wrongVerifier = await token({ ...base, client_secret: secretRow, code_verifier: 'x'.repeat(43) });
    expect(wrongVerifier.status).toBe(400);
    expect(((await wrongVerifier.json()) as { error: string }).error).toBe('invalid_grant');
    // The code was spent by that attempt: even the right verifier cannot use it now.
    const reused = await token({ ...base, client_secret: secretRow, code_verifier: 'y'.repeat(43) });
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  });
});
