// A sandbox Gmail connector with read capabilities, its access token (opened from the connector as the
// mailbox sync would), and raw calls to the sandbox's Gmail routes with it, as the Gmail reader makes them.
import { expect } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { findConnector } from '../../../src/handlers/connectors/connectors-data.ts';
import { openTokens } from '../../../src/handlers/connectors/tokens.ts';
import { playHuman, type Connector } from './human.ts';

export async function connectSandboxGmail(
  t: TestApp,
  owner: SignupResult,
  account: string,
  capabilities: string[],
): Promise<Connector> {
  const res = await t.request('/api/v1/connectors/oauth', {
    method: 'POST',
    token: owner.token,
    json: { provider: 'gmail', capabilities },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const started = (await res.json()) as Connector;
  expect((await playHuman(started.authorization_url as string, { email: account })).status).toBe(200);
  return started;
}

/** The connector's current access token for the sandbox Google. */
export async function accessToken(t: TestApp, owner: SignupResult, connectorId: string): Promise<string> {
  const row = await findConnector(t.db.sql, owner.workspaceId, connectorId);
  if (!row) throw new Error(`no connector ${connectorId}`);
  return openTokens(t.deps, row).access_token;
}

export interface GmailAnswer<T = any> {
  status: number;
  body: T;
}

/** GET `${base}/gmail/v1/users/me/<path>` with the bearer token, as Google's REST API is called. */
export async function gmail<T = any>(baseUrl: string, token: string, path: string): Promise<GmailAnswer<T>> {
  const res = await fetch(`${baseUrl}/sandbox/google/gmail/v1/users/me/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A test email from the connector to `to`; the sandbox message id it became. */
export async function sendTest(t: TestApp, owner: SignupResult, connectorId: string, to: string): Promise<string> {
  const res = await t.request(`/api/v1/connectors/${connectorId}/test-email`, {
    method: 'POST',
    token: owner.token,
    json: { to },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { provider_message_id: string }).provider_message_id;
}

export async function simulate(
  t: TestApp,
  owner: SignupResult,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return t.request('/api/v1/sandbox/inbound', { method: 'POST', token: owner.token, json: body, headers });
}

/** A header's value in a Gmail payload's headers. */
export const headerOf = (payload: { headers: Array<{ name: string; value: string }> }, name: string) =>
  payload.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
