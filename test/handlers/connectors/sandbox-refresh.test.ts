// Sandbox mode refreshes tokens through the same code as live mode, against the service's own token
// endpoint: an hour later the connector still sends, with a new access token from the sandbox, and no
// transaction is held across that call to the service itself (on the embedded database it would hold
// the one connection the sandbox endpoint needs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { playHuman, type Connector } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let now = new Date();
const clock = { now: () => now };

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ clock }));
  owner = await t.signup();
  owner = { ...owner, token: (await t.createKey(owner.token, 'sandbox refresh')).key };
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('sandbox token refresh', () => {
  it('refreshes an expiring access token at the sandbox token endpoint and keeps sending', async () => {
    const connector = (await (
      await t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider: 'gmail' } })
    ).json()) as Connector;
    await playHuman(connector.authorization_url as string, { email: 'hour@sandbox.example' });
    const [before] = await t.db
      .sql`select count(*)::int as n from sandbox_tokens t join sandbox_grants g on g.id = t.grant_id where g.account_email = 'hour@sandbox.example' and t.kind = 'access'`;
    now = new Date(now.getTime() + 59 * 60 * 1000);
    const res = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'later@example.com' },
    });
    expect(res.status).toBe(200);
    const [after] = await t.db
      .sql`select count(*)::int as n from sandbox_tokens t join sandbox_grants g on g.id = t.grant_id where g.account_email = 'hour@sandbox.example' and t.kind = 'access'`;
    expect(after.n).toBe(before.n + 1);
    const [row] = await t.db
      .sql`select access_expires_at, refresh_lease_until from connectors where id = ${connector.id}`;
    expect(row.refresh_lease_until).toBeNull();
    expect(row.access_expires_at.getTime()).toBeGreaterThan(now.getTime());
  });
});
