import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('signup', () => {
  it('creates the user, a workspace they own, and logs them in', async () => {
    const email = uniqueEmail('owner');
    const res = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email, password: 'long enough pw', name: 'Ada', workspace_name: 'Engines' },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, any>;
    expect(body.user).toMatchObject({ email, name: 'Ada' });
    expect(body.user.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(body.workspace).toMatchObject({ name: 'Engines' });
    expect(body.workspace.id).toMatch(/^ws_[0-9a-z]{26}$/);
    expect(body.role).toBe('owner');
    expect(body.login).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    const me = await t.request('/api/v1/users/me', { token: body.login.access_token });
    expect((await me.json()).role).toBe('owner');
  });

  it('refuses a second account with the same email in any letter case with 409', async () => {
    const user = await t.signup();
    const res = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email: user.email.toUpperCase(), password: 'long enough pw', name: 'B', workspace_name: 'W' },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('already_exists');
  });

  it('refuses a password over 1024 characters with 422 and a short one with 400', async () => {
    const long = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email: uniqueEmail(), password: 'x'.repeat(1025), name: 'A', workspace_name: 'W' },
    });
    expect(long.status).toBe(422);
    expect((await long.json()).code).toBe('password_too_long');
    const short = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email: uniqueEmail(), password: 'short', name: 'A', workspace_name: 'W' },
    });
    expect(short.status).toBe(400);
  });

  it('leaves nothing behind when signup fails', async () => {
    const email = uniqueEmail('partial');
    await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email, password: 'x'.repeat(1025), name: 'A', workspace_name: 'Ghost' },
    });
    const rows = await t.deps.db.sql`select 1 from users where email = ${email}`;
    expect(rows.length).toBe(0);
  });
});
