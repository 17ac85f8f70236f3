import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let user: SignupResult;
let key: { id: string; key: string };
let now = new Date();
const clock = { now: () => now };
// The throttling cases stay in the middle of one window (of the next minute, so tokens signed now are
// still valid), so a window boundary cannot reset the count mid-test.
const midWindowMs = Math.floor(Date.now() / 60_000) * 60_000 + 90_000;
const midWindow = { now: () => new Date(midWindowMs) };
beforeAll(async () => {
  t = await createTestApp({ clock });
  user = await t.signup();
  key = await t.createKey(user.token);
});
afterAll(async () => t?.close());

const me = (authorization?: string) =>
  t.request('/api/v1/users/me', authorization === undefined ? {} : { headers: { Authorization: authorization } });

async function expect401(res: Response, challenge: string) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(challenge);
  const body = (await res.json()) as { code: string; detail: string };
  expect(body.code).toBe('unauthorized');
  return body.detail;
}

async function jwtSecret(): Promise<Uint8Array> {
  const [row] = await t.deps.db.sql<{ value: string }[]>`select value from server_secrets where name = 'jwt_hs256'`;
  return new Uint8Array(Buffer.from(row.value, 'base64url'));
}

describe('bearer authentication', () => {
  it('answers a missing credential with 401 and a bare Bearer challenge', async () => {
    await expect401(await me(), 'Bearer');
  });

  it('gives malformed, tampered, wrong-audience, alg none and mistyped keys one 401 body', async () => {
    const [header, payload] = user.token.split('.');
    const secret = await jwtSecret();
    const wrongAud = await new SignJWT({ wid: user.workspaceId })
      .setProtectedHeader({
        alg: 'HS256',
        typ: 'at+jwt',
        kid: user.token && JSON.parse(Buffer.from(header, 'base64url').toString()).kid,
      })
      .setSubject(user.userId)
      .setIssuer('service')
      .setAudience('someone-else')
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('x')
      .sign(secret);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    const typo = key.key.slice(0, -1) + (key.key.endsWith('a') ? 'b' : 'a');
    const details = new Set<string>();
    for (const bad of [
      'Bearer',
      'Bearer not-a-token',
      `Bearer ${header}.${payload}.AAAA`,
      `Bearer ${wrongAud}`,
      `Bearer ${none}`,
      `Bearer ${typo}`,
      'Basic dXNlcjpwYXNz',
    ]) {
      const sent = bad.startsWith('Bearer ') ? 'Bearer error="invalid_token"' : 'Bearer';
      details.add(await expect401(await me(bad), sent));
    }
    expect(details.size).toBe(1);
  });

  it('rejects an expired JWT with 401; logging in again gives a working one', async () => {
    const started = now;
    const fresh = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email: user.email, password: user.password },
    });
    const token = ((await fresh.json()) as { access_token: string }).access_token;
    expect((await me(`Bearer ${token}`)).status).toBe(200);
    now = new Date(started.getTime() + 901_000);
    await expect401(await me(`Bearer ${token}`), 'Bearer error="invalid_token"');
    const again = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email: user.email, password: user.password },
    });
    expect((await me(`Bearer ${((await again.json()) as { access_token: string }).access_token}`)).status).toBe(200);
    now = started;
  });

  it('lets the first valid of several bearer credentials win, in either order', async () => {
    const both = [
      `Bearer garbage, Bearer ${key.key}`,
      `Bearer ${key.key}, Bearer ${user.token}`,
      `Bearer ${user.token} Bearer ${key.key}`,
    ];
    const kinds = [];
    for (const header of both) {
      const res = await me(header);
      expect(res.status).toBe(200);
      kinds.push(((await res.json()) as { credential: { type: string } }).credential.type);
    }
    expect(kinds).toEqual(['api_key', 'api_key', 'jwt']);
  });

  it('refuses a credential whose scopes do not cover the operation with 403 insufficient_scope', async () => {
    const narrow = await t.createKey(user.token, 'narrow');
    await t.deps.db.sql`update api_keys set scopes = ${t.deps.db.sql.array(['users:read'])} where id = ${narrow.id}`;
    const fresh = await createTestApp({ db: t.db });
    try {
      expect((await fresh.request('/api/v1/users/me', { token: narrow.key })).status).toBe(200);
      const res = await fresh.request('/api/v1/api-keys', { token: narrow.key });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
    } finally {
      await fresh.close();
    }
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After and RateLimit headers once a credential spends its quota', async () => {
    const limited = await createTestApp({
      db: t.db,
      clock: midWindow,
      env: { RATE_LIMIT_PER_CREDENTIAL: '3', RATE_LIMIT_WINDOW_SECONDS: '60' },
    });
    try {
      const statuses = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await limited.request('/api/v1/users/me', { token: key.key });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('ratelimit-policy')).toBe('"credential";q=3;w=60');
      expect(last!.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
      // Another credential has its own quota.
      expect((await limited.request('/api/v1/users/me', { token: user.token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('throttles public operations per client address', async () => {
    const limited = await createTestApp({ db: t.db, clock: midWindow, env: { RATE_LIMIT_PER_ADDRESS: '2' } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.request('/healthz')).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
