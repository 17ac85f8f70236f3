import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('workspace scoping of keys', () => {
  it('lets a key see only the workspace it was minted in', async () => {
    const a = await t.signup();
    const b = await t.signup();
    await t.createKey(b.token, 'b only');
    const aKey = await t.createKey(a.token, 'a only');
    const list = await (await t.request('/api/v1/api-keys', { token: aKey.key })).json();
    expect(list.data.map((k: any) => k.name)).toEqual(['a only']);
    const me = await (await t.request('/api/v1/users/me', { token: aKey.key })).json();
    expect(me.workspace.id).toBe(a.workspaceId);
  });

  it('refuses key management to members who are not admins with 403', async () => {
    const admin = await t.signup();
    const inv = await (
      await t.request('/api/v1/invitations', {
        method: 'POST',
        token: admin.token,
        json: { email: `m.${Date.now()}@example.com`, role: 'member' },
      })
    ).json();
    const joined = await (
      await t.request('/api/v1/invitations/accept', {
        method: 'POST',
        json: { token: inv.token, name: 'M', password: 'member password' },
      })
    ).json();
    const token = joined.login.access_token;
    expect((await t.request('/api/v1/api-keys', { token })).status).toBe(403);
    expect((await t.request('/api/v1/api-keys', { method: 'POST', token, json: { name: 'x' } })).status).toBe(403);
  });
});
