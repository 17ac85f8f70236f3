// The sandbox consent pages (Google's, Facebook's) as a person sees them: the account must be a real
// e-mail address (the form comes back with the error otherwise, nothing connected), both are pre-filled
// with the person's address, and they, like the OAuth callback page, are styled by the service's own
// stylesheet under their strict CSP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { consentForm, playHuman, type Connector } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  owner = await t.signup();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function start(provider: 'gmail' | 'meta_ads'): Promise<Connector> {
  const res = await t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider } });
  expect(res.status).toBe(201);
  return (await res.json()) as Connector;
}

/** Opens the consent link and submits its form with `email` as the account, as a browser would. */
async function submitConsent(authorizationUrl: string, email: string): Promise<Response> {
  const html = await (await fetch(authorizationUrl)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] as string;
  return fetch(new URL(action, authorizationUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: consentForm(html, { email }).toString(),
    redirect: 'manual',
  });
}

const hostile = '<img/src=x/onerror=alert(9)>@x.io';

describe.each([
  ['gmail', 'Sign in with Google (sandbox)'],
  ['meta_ads', 'Log in with Facebook (sandbox)'],
] as const)('the %s sandbox consent page', (provider, title) => {
  it('is pre-filled with the address of the person connecting', async () => {
    const connector = await start(provider);
    const html = await (await fetch(connector.authorization_url as string)).text();
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`name="account_email" type="email" required maxlength="254" value="${owner.email}"`);
  });

  it.each([hostile, 'ada@localhost', 'ada@@example.com', 'ada @example.com'])(
    'shows the form again with an error for the account %s and connects nothing',
    async (account) => {
      const connector = await start(provider);
      const res = await submitConsent(connector.authorization_url as string, account);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toContain('<form method="post"');
      expect(html).toMatch(
        /<p id="account-error" class="form-error" role="alert">Enter an email address for the account: [^<]+\.<\/p>/,
      );
      expect(html).toContain('aria-invalid="true"');
      expect(html).not.toContain('<img');
      const again = await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token });
      expect(((await again.json()) as Connector).status).toBe('pending_consent');
    },
  );

  it('connects once the re-shown form is sent with a valid address', async () => {
    const connector = await start(provider);
    const refused = await submitConsent(connector.authorization_url as string, hostile);
    const html = await refused.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] as string;
    const decided = await fetch(new URL(action, server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: consentForm(html, { email: 'Ada@Sandbox.example' }).toString(),
      redirect: 'manual',
    });
    expect(decided.status).toBe(302);
    expect((await fetch(decided.headers.get('location') as string)).status).toBe(200);
    const connected = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(connected.status).toBe('connected');
    // The address as normalised for leads; a meta_ads connector's own account is then its ad account.
    const grants = await t.db.sql<
      { account_email: string }[]
    >`select account_email from sandbox_grants where workspace_id = ${owner.workspaceId}`;
    expect(grants.map((g) => g.account_email)).toContain('ada@sandbox.example');
  });
});

describe('the pages the service renders itself', () => {
  it('link the service’s own stylesheet, served as CSS from this origin, which their CSP allows', async () => {
    const connector = await start('gmail');
    const consent = await fetch(connector.authorization_url as string);
    expect(consent.headers.get('content-security-policy')).toContain("style-src 'self'");
    expect(await consent.text()).toContain('<link rel="stylesheet" href="/page.css">');
    const callback = await playHuman((await start('gmail')).authorization_url as string, {
      email: 'grace@sandbox.example',
    });
    expect(callback.html).toContain('<link rel="stylesheet" href="/page.css">');
    const sheet = await fetch(`${server.url}/page.css`);
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(sheet.headers.get('x-content-type-options')).toBe('nosniff');
    const css = await sheet.text();
    expect(css).toContain('.sandbox-banner');
    expect(css).not.toMatch(/url\(|@import|https?:/);
  });
});

describe.each([
  ['gmail', 'Gmail'],
  ['meta_ads', 'Meta Ads'],
] as const)('the OAuth callback page after a %s consent', (provider, name) => {
  it('names the provider that was connected, and the account', async () => {
    const connector = await start(provider);
    const callback = await playHuman(connector.authorization_url as string, { email: 'grace@sandbox.example' });
    expect(callback.status).toBe(200);
    const connected = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(callback.html).toContain(
      `<p>${name} is connected as <strong>${connected.account_email}</strong> (sandbox mode).</p>`,
    );
    expect(callback.html).not.toContain(provider === 'gmail' ? 'Meta' : 'Gmail');
  });
});
