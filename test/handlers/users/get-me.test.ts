import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('get_me', () => {
  it('reports the JWT credential with its scopes', async () => {
    const user = await t.signup();
    const me = await (await t.request('/api/v1/users/me', { token: user.token })).json();
    expect(me.user.id).toBe(user.userId);
    expect(me.workspace.id).toBe(user.workspaceId);
    expect(me.credential).toMatchObject({ type: 'jwt', scopes: ['*'] });
  });

  it('reports the API key credential and the admin who minted it', async () => {
    const user = await t.signup();
    const key = await t.createKey(user.token);
    const me = await (await t.request('/api/v1/users/me', { token: key.key })).json();
    expect(me.credential).toEqual({ type: 'api_key', id: key.id, scopes: ['*'] });
    expect(me.user.id).toBe(user.userId);
  });
});
