// The panel session's routes over REST: the cookie's attributes, refresh minting JWTs, token rotation with a
// grace for a second tab and reuse detection after it, CSRF refusals, and revocation at sign-out, password
// change and member removal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';

const clock: Clock & { offsetMs: number } = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const ORIGIN = 'http://localhost';

let t: TestApp;
let tls: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { ADMIN_SESSION_TTL_SECONDS: '86400' } });
  tls = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://panel.example' } });
});
afterAll(async () => {
  await t?.close();
  await tls?.close();
});

/** The `name=value` of a Set-Cookie header, to send back. */
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0];

function post(app: TestApp, path: string, headers: Record<string, string> = {}, method = 'POST') {
  return app.request(path, { method, headers: { Origin: ORIGIN, ...headers } });
}

async function start(app: TestApp, user: SignupResult): Promise<string> {
  const res = await post(app, '/admin/session', { Authorization: `Bearer ${user.token}` });
  expect(res.status).toBe(201);
  return cookieOf(res);
}

const refresh = (cookie: string) => post(t, '/admin/session/refresh', { Cookie: cookie });

describe('POST /admin/session', () => {
  it('sets an httpOnly, SameSite=Strict cookie on /admin for the lifetime, holding no JWT', async () => {
    const user = await t.signup();
    const res = await post(t, '/admin/session', { Authorization: `Bearer ${user.token}` });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^admin_session=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/admin; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(user.token);
    const body = (await res.json()) as { expires_at: string };
    expect(Date.parse(body.expires_at) - clock.now().getTime()).toBeGreaterThan(86_300_000);
    const [row] = await t.deps.db.sql<{ token_hash: string }[]>`
      select token_hash from admin_sessions where user_id = ${user.userId}`;
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie).not.toContain(row.token_hash);
  });

  it('marks the cookie Secure when the service is served over TLS', async () => {
    const user = await tls.signup();
    const res = await tls.request('/admin/session', {
      method: 'POST',
      headers: { Origin: 'https://panel.example', Authorization: `Bearer ${user.token}` },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('refuses an API key with 403 and no token with 401, as problem+json', async () => {
    const user = await t.signup();
    const { key } = await t.createKey(user.token);
    const byKey = await post(t, '/admin/session', { Authorization: `Bearer ${key}` });
    expect(byKey.status).toBe(403);
    expect(byKey.headers.get('content-type')).toBe('application/problem+json');
    expect(byKey.headers.get('set-cookie')).toBeNull();
    expect(((await byKey.json()) as { code: string }).code).toBe('forbidden');
    const none = await post(t, '/admin/session');
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('refuses a cross-site Origin or none with 403 before anything else', async () => {
    const user = await t.signup();
    for (const headers of [{ Origin: 'https://evil.example' }, { Origin: 'null' }]) {
      const res = await t.request('/admin/session', {
        method: 'POST',
        headers: { ...headers, Authorization: `Bearer ${user.token}` },
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    const none = await t.request('/admin/session', {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(none.status).toBe(403);
  });
});

describe('POST /admin/session/refresh', () => {
  it('mints a JWT like login does and rotates the cookie', async () => {
    const user = await t.signup();
    const cookie = await start(t, user);
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    const me = await t.request('/api/v1/users/me', { token: body.access_token });
    expect(((await me.json()) as { user: { id: string } }).user.id).toBe(user.userId);
    const next = cookieOf(res);
    expect(next).not.toBe(cookie);
    expect((await refresh(next)).status).toBe(200);
  });

  it('answers a second tab that sent the replaced token at the same moment, then refuses it as a replay', async () => {
    const user = await t.signup();
    const cookie = await start(t, user);
    const first = await refresh(cookie);
    const second = await refresh(cookie);
    expect(second.status).toBe(200);
    expect(second.headers.get('set-cookie')).toBeNull();
    clock.offsetMs += 61_000;
    const replay = await refresh(cookie);
    expect(replay.status).toBe(401);
    // The replay ended the session: the cookie the first refresh set is dead too.
    expect((await refresh(cookieOf(first))).status).toBe(401);
  });

  it('survives the JWT lifetime and ends at the session lifetime', async () => {
    const user = await t.signup();
    let cookie = await start(t, user);
    clock.offsetMs += 3_600_000;
    const later = await refresh(cookie);
    expect(later.status).toBe(200);
    cookie = cookieOf(later);
    clock.offsetMs += 86_400_000;
    const expired = await refresh(cookie);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('content-type')).toBe('application/problem+json');
  });

  it('refuses a missing or unknown cookie with 401 and a cross-site Origin with 403', async () => {
    expect((await post(t, '/admin/session/refresh')).status).toBe(401);
    expect((await refresh('admin_session=not-a-session')).status).toBe(401);
    const user = await t.signup();
    const cookie = await start(t, user);
    const cross = await t.request('/admin/session/refresh', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', Cookie: cookie },
    });
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { code: string }).code).toBe('forbidden');
    expect((await refresh(cookie)).status).toBe(200);
  });
});

describe('revoking a panel session', () => {
  it('DELETE /admin/session signs out: the cookie is cleared and refused afterwards', async () => {
    const user = await t.signup();
    const cookie = await start(t, user);
    const res = await post(t, '/admin/session', { Cookie: cookie }, 'DELETE');
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(
      /^admin_session=; Max-Age=0; Path=\/admin; HttpOnly; SameSite=Strict/,
    );
    expect((await refresh(cookie)).status).toBe(401);
    const cross = await t.request('/admin/session', { method: 'DELETE', headers: { Origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
  });

  it('changing the password ends every panel session of the person', async () => {
    const user = await t.signup();
    const one = await start(t, user);
    const two = await start(t, user);
    const res = await t.request('/api/v1/users/me/password', {
      method: 'POST',
      token: user.token,
      json: { current_password: user.password, new_password: 'a brand new password' },
    });
    expect(res.status).toBe(204);
    expect((await refresh(one)).status).toBe(401);
    expect((await refresh(two)).status).toBe(401);
    // The JWT still in hand starts a new session under the new password.
    expect((await refresh(await start(t, user))).status).toBe(200);
  });

  it('removing a member ends their panel sessions in that workspace', async () => {
    const owner = await t.signup();
    const invitation = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: `member.${Date.now()}@example.com`, role: 'member' },
    });
    const accepted = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: ((await invitation.json()) as { token: string }).token, name: 'M', password: 'member password' },
    });
    const body = (await accepted.json()) as { user: { id: string }; login: { access_token: string } };
    const cookie = await start(t, { ...owner, token: body.login.access_token, userId: body.user.id });
    expect((await t.request(`/api/v1/members/${body.user.id}`, { method: 'DELETE', token: owner.token })).status).toBe(
      204,
    );
    expect((await refresh(cookie)).status).toBe(401);
  });
});
