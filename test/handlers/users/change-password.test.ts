import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const change = (token: string, body: Record<string, unknown>) =>
  t.request('/api/v1/users/me/password', { method: 'POST', token, json: body });

const login = (user: SignupResult, password: string) =>
  t.request('/api/v1/users/login', { method: 'POST', json: { email: user.email, password } });

describe('change_password', () => {
  it('sets the new password: the old one no longer logs in, the new one does', async () => {
    const user = await t.signup();
    const res = await change(user.token, { current_password: user.password, new_password: 'a fresh new password' });
    expect(res.status).toBe(204);
    expect((await login(user, user.password)).status).toBe(401);
    expect((await login(user, 'a fresh new password')).status).toBe(200);
  });

  it('refuses a wrong current password with 422 naming the field, and keeps the old password', async () => {
    const user = await t.signup();
    const res = await change(user.token, { current_password: 'not my password', new_password: 'a fresh new password' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; detail: string; errors: Array<{ pointer: string }> };
    expect(body.code).toBe('unprocessable');
    expect(body.detail).toBe('The current password is incorrect.');
    expect(body.errors[0].pointer).toBe('/current_password');
    expect((await login(user, user.password)).status).toBe(200);
  });

  it('counts wrong current passwords towards the login throttle', async () => {
    const user = await t.signup();
    for (let i = 0; i < 10; i += 1)
      expect(
        (await change(user.token, { current_password: `wrong ${i} password`, new_password: 'whatever new one' }))
          .status,
      ).toBe(422);
    const blocked = await change(user.token, { current_password: user.password, new_password: 'whatever new one' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });

  it('refuses an API key with 403, even one with every scope', async () => {
    const user = await t.signup();
    const { key } = await t.createKey(user.token);
    const res = await change(key, { current_password: user.password, new_password: 'a fresh new password' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    expect((await login(user, user.password)).status).toBe(200);
  });

  it('refuses a new password shorter than 8 characters and a call without a credential', async () => {
    const user = await t.signup();
    expect((await change(user.token, { current_password: user.password, new_password: 'short' })).status).toBe(400);
    const anonymous = await t.request('/api/v1/users/me/password', {
      method: 'POST',
      json: { current_password: user.password, new_password: 'a fresh new password' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a new password over 1,024 characters with 422 pointing at new_password', async () => {
    const user = await t.signup();
    const res = await change(user.token, { current_password: user.password, new_password: 'x'.repeat(1025) });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; detail: string; errors: Array<{ pointer: string }> };
    expect(body.code).toBe('password_too_long');
    expect(body.detail).toBe('The new_password must be at most 1024 characters.');
    expect(body.errors[0].pointer).toBe('/new_password');
  });
});
