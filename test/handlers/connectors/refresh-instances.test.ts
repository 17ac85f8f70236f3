// Two service instances on one PostgreSQL database send through the same connector just as its access
// token is about to expire: the refresh happens once (the other instance waits for it and uses the new
// token), not once per instance. The fake Google holds the refresh open so the two really overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/connection.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { listenOnReservedPort } from './listen.ts';

const url = process.env.DATABASE_URL;
let google: FakeGoogle;
let a: TestApp;
let b: TestApp;
let secondDb: Database;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let now = new Date();
const clock = { now: () => now };

describe.skipIf(!url)('refreshing a connector token across instances (PostgreSQL)', () => {
  beforeAll(async () => {
    let redirect = '';
    google = await startFakeGoogle({ redirectUri: () => redirect });
    ({ app: a, server } = await listenOnReservedPort({ clock, env: google.env() }));
    redirect = `${server.url}/oauth/callback`;
    const [{ schema }] = await a.deps.db.sql<{ schema: string }[]>`select current_schema() as schema`;
    secondDb = await openDatabase({ databaseUrl: url, searchPath: schema });
    b = await createTestApp({ db: secondDb, clock, env: { ...google.env(), PUBLIC_BASE_URL: server.url } });
    owner = await a.signup();
    owner = { ...owner, token: (await a.createKey(owner.token, 'two instances')).key };
  });
  afterAll(async () => {
    await b?.close();
    await secondDb?.close();
    await server?.close();
    await a?.close();
    await google?.close();
  });

  it('refreshes once when both instances need a fresh token at the same time', async () => {
    const started = (await (
      await a.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider: 'gmail' } })
    ).json()) as { id: string; authorization_url: string };
    await fetch(await google.consent(started.authorization_url, { email: 'shared@gmail.example' }));
    now = new Date(now.getTime() + 58 * 60 * 1000);
    const before = google.refreshes;
    const held = google.holdRefreshes();
    const send = (app: TestApp) =>
      app.request(`/api/v1/connectors/${started.id}/test-email`, {
        method: 'POST',
        token: owner.token,
        json: { to: 'x@example.com' },
      });
    const both = Promise.all([send(a), send(b)]);
    // Let both reach the connector's lock before the provider answers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    held.release();
    const [ra, rb] = await both;
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(google.refreshes - before).toBe(1);
    expect(google.sent.slice(-2).map((m) => m.accessToken)[0]).toBe(google.sent.slice(-2).map((m) => m.accessToken)[1]);
  });
});
