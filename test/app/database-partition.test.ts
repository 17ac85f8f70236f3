// A silent network partition to the database (a proxy that keeps the connections open but forwards no
// byte: no RST, no FIN) must not hold requests for the whole outage: once the bounds pass (1 s here,
// DATABASE_QUERY_TIMEOUT_MS and DATABASE_CONNECT_TIMEOUT_MS in production), requests get a 503
// `database_unavailable` with Retry-After, and the service answers again once bytes flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';
import { createProxiedDatabase, type ProxiedDatabase } from '../helpers/db-proxy.ts';

let proxied: ProxiedDatabase;
let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  proxied = await createProxiedDatabase({ connectTimeoutMs: 1000, queryTimeoutMs: 1000 });
  t = await createTestApp({ db: proxied.db });
  owner = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await proxied?.db.close();
});

async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await res.json()).toMatchObject({ code: 'database_unavailable', status: 503 });
}

const listKeys = () => t.request('/api/v1/api-keys', { token: owner.token });

describe('a database behind a silent partition', () => {
  it('answers 503 database_unavailable with Retry-After while no byte flows, on every pooled connection, then 200 again', async () => {
    expect((await listKeys()).status).toBe(200);
    proxied.blackHole();
    try {
      // More requests than the pool has connections: the ones queued for a connection are bounded too.
      const during = await Promise.all(Array.from({ length: 12 }, () => listKeys()));
      for (const res of during) await expectUnavailable(res);
      // A connection opened during the partition cannot finish its start-up: bounded by the connect timeout.
      await expectUnavailable(await listKeys());
    } finally {
      await proxied.restore();
    }
    expect((await listKeys()).status).toBe(200);
  });
});
