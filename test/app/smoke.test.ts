import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('service skeleton', () => {
  it('answers /healthz after one database query', async () => {
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('signs up, reads /me with the JWT and with a minted key', async () => {
    const user = await t.signup();
    const me = await t.request('/api/v1/users/me', { token: user.token });
    expect(me.status).toBe(200);
    const key = await t.createKey(user.token);
    const viaKey = await t.request('/api/v1/users/me', { token: key.key });
    expect(viaKey.status).toBe(200);
    expect(((await viaKey.json()) as { credential: { type: string } }).credential.type).toBe('api_key');
  });
});
