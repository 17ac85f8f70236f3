import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../../src/auth/passwords.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const login = (email: string, password: string, extra: Record<string, unknown> = {}) =>
  t.request('/api/v1/users/login', { method: 'POST', json: { email, password, ...extra } });

describe('login', () => {
  it('returns a bearer JWT with its lifetime', async () => {
    const user = await t.signup();
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
  });

  it('gives unknown email and wrong password the same 401 body', async () => {
    const user = await t.signup();
    const wrong = await login(user.email, 'wrong password!');
    const unknown = await login(uniqueEmail('nobody'), 'wrong password!');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined });
    expect(strip(await wrong.json())).toEqual(strip(await unknown.json()));
  });

  it('refuses a password over 1024 characters with 422', async () => {
    const res = await login(uniqueEmail(), 'x'.repeat(1025));
    expect(res.status).toBe(422);
  });

  it('rehashes the stored password on login when the parameters changed', async () => {
    const user = await t.signup();
    const older = createPasswordHasher({ params: { memoryCost: 2048, timeCost: 1, parallelism: 1, outputLen: 32 } });
    await t.deps.db
      .sql`update users set password_hash = ${await older.hashPassword(user.password)} where id = ${user.userId}`;
    expect((await login(user.email, user.password)).status).toBe(200);
    const [row] = await t.deps.db.sql<
      { password_hash: string }[]
    >`select password_hash from users where id = ${user.userId}`;
    expect(row.password_hash).toContain('m=1024');
    expect(t.deps.auth.passwords.needsRehash(row.password_hash)).toBe(false);
  });

  it('blocks the 11th attempt within 15 minutes with 429 and Retry-After, even with the right password', async () => {
    const user = await t.signup();
    for (let i = 0; i < 10; i++) expect((await login(user.email, 'wrong password!')).status).toBe(401);
    const blocked = await login(user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await blocked.json()).code).toBe('rate_limited');
  });

  it('logs in to the workspace named by workspace_id when the user belongs to several', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const invite = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: other.token,
      json: { email: owner.email, role: 'member' },
    });
    const { token } = (await invite.json()) as { token: string };
    const accepted = await t.request('/api/v1/invitations/accept-as-me', {
      method: 'POST',
      token: owner.token,
      json: { token },
    });
    expect(accepted.status).toBe(201);
    const res = await login(owner.email, owner.password, { workspace_id: other.workspaceId });
    const jwt = (await res.json()).access_token;
    const me = await (await t.request('/api/v1/users/me', { token: jwt })).json();
    expect(me.workspace.id).toBe(other.workspaceId);
    expect(me.role).toBe('member');
  });
});
