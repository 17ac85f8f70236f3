import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('revoke_api_key', () => {
  it('rejects the key on the very next request and keeps the row, marked revoked', async () => {
    const admin = await t.signup();
    const key = await t.createKey(admin.token);
    expect((await t.request('/api/v1/users/me', { token: key.key })).status).toBe(200);
    const res = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.revoked_at).not.toBeNull();
    const next = await t.request('/api/v1/users/me', { token: key.key });
    expect(next.status).toBe(401);
    expect(next.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const list = await (await t.request('/api/v1/api-keys', { token: admin.token })).json();
    expect(list.data.find((k: any) => k.id === key.id).revoked_at).toBe(body.revoked_at);
  });

  it('treats a second revoke as a no-op that keeps the first time', async () => {
    const admin = await t.signup();
    const key = await t.createKey(admin.token);
    const first = await (
      await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token })
    ).json();
    const second = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token });
    expect(second.status).toBe(200);
    expect((await second.json()).revoked_at).toBe(first.revoked_at);
  });

  it('answers 404 for a key of another workspace, exactly as for a missing id', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const bKey = await t.createKey(b.token);
    const foreign = await t.request(`/api/v1/api-keys/${bKey.id}`, { method: 'DELETE', token: a.token });
    const missing = await t.request('/api/v1/api-keys/key_00000000000000000000000000', {
      method: 'DELETE',
      token: a.token,
    });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const strip = (x: any) => ({ ...x, request_id: undefined, instance: undefined });
    expect(strip(await foreign.json())).toEqual(strip(await missing.json()));
    expect((await t.request('/api/v1/users/me', { token: bKey.key })).status).toBe(200);
  });
});
