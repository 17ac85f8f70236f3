// Two service instances on one PostgreSQL database, each on a real port: revocation and
// throttling must hold across them. PGlite serves exactly one instance, so this runs on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const url = process.env.DATABASE_URL;
// A window of 30 days, so the requests never fall on either side of a window's end.
const env = {
  RATE_LIMIT_PER_CREDENTIAL: '6',
  RATE_LIMIT_SYNC_MS: '50',
  RATE_LIMIT_WINDOW_SECONDS: String(30 * 86_400),
};

let a: TestApp;
let b: TestApp;
let secondDb: Database;
let servers: Array<{ url: string; close(): Promise<void> }> = [];

describe.skipIf(!url)('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    a = await createTestApp({ env });
    const [{ schema }] = await a.deps.db.sql<{ schema: string }[]>`select current_schema() as schema`;
    secondDb = await openDatabase({ databaseUrl: url, searchPath: schema });
    b = await createTestApp({ db: secondDb, env });
    servers = [await listen(a.app), await listen(b.app)];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await b?.close();
    await secondDb?.close();
    await a?.close();
  });

  const call = (instance: number, path: string, token: string, init: RequestInit = {}) =>
    fetch(`${servers[instance].url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as object) },
    });

  it('rejects a key on the other instance on the next request after it is revoked through one', async () => {
    const admin = await a.signup();
    const key = await a.createKey(admin.token);
    expect((await call(0, '/api/v1/users/me', key.key)).status).toBe(200);
    expect((await call(1, '/api/v1/users/me', key.key)).status).toBe(200);
    const revoked = await call(0, `/api/v1/api-keys/${key.id}`, admin.token, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect((await call(1, '/api/v1/users/me', key.key)).status).toBe(401);
    expect((await call(0, '/api/v1/users/me', key.key)).status).toBe(401);
  });

  it('rejects a removed member on the other instance on the next request', async () => {
    const admin = await a.signup();
    const inv = await (
      await call(0, '/api/v1/invitations', admin.token, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: `two.${Date.now()}@example.com`, role: 'member' }),
      })
    ).json();
    const joined = await (
      await fetch(`${servers[1].url}/api/v1/invitations/accept`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: inv.token, name: 'M', password: 'member password' }),
      })
    ).json();
    const token = joined.login.access_token;
    expect((await call(1, '/api/v1/users/me', token)).status).toBe(200);
    expect((await call(0, `/api/v1/members/${joined.user.id}`, admin.token, { method: 'DELETE' })).status).toBe(204);
    expect((await call(1, '/api/v1/users/me', token)).status).toBe(401);
  });

  it('holds one rate limit across both instances', async () => {
    const admin = await a.signup();
    const key = await a.createKey(admin.token);
    for (let i = 0; i < 3; i++) expect((await call(0, '/api/v1/users/me', key.key)).status).toBe(200);
    await a.deps.auth.limiter.sync();
    await b.deps.auth.limiter.sync();
    for (let i = 0; i < 3; i++) expect((await call(1, '/api/v1/users/me', key.key)).status).toBe(200);
    await b.deps.auth.limiter.sync();
    await a.deps.auth.limiter.sync();
    expect((await call(0, '/api/v1/users/me', key.key)).status).toBe(429);
    expect((await call(1, '/api/v1/users/me', key.key)).status).toBe(429);
  });
});
