// The sandbox consent pages store the account a person types in; U+0000 there (which the database cannot store)
// is refused with a 400 page, never a 500. (A form cannot carry a lone surrogate: it is sent as U+FFFD.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { consentForm, type Connector } from './human.ts';
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

async function submitConsent(provider: string, email: string): Promise<Response> {
  const res = await t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider } });
  expect(res.status).toBe(201);
  const connector = (await res.json()) as Connector;
  const page = await fetch(connector.authorization_url as string);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1];
  return fetch(new URL(action, connector.authorization_url as string), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: consentForm(html, { email }).toString(),
    redirect: 'manual',
  });
}

describe('the sandbox consent pages', () => {
  it.each([['gmail'], ['meta_ads']])('refuse a NUL in the %s account with a 400 page', async (provider) => {
    const res = await submitConsent(provider, 'ada\u0000@sandbox.example');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('SANDBOX');
  });
});
