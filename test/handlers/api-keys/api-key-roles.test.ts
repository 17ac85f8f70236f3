// A key never carries more than its creator currently has: removal revokes the creator's keys, a
// demotion lowers them at once, and CLI keys act with the role the operator gave them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminCommands } from '../../../scripts/admin/commands.ts';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function addAdmin(owner: SignupResult): Promise<{ userId: string; token: string }> {
  const inv = await (
    await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: uniqueEmail('admin'), role: 'admin' },
    })
  ).json();
  const res = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token: inv.token, name: 'Admin', password: 'admin password' },
  });
  const body = await res.json();
  return { userId: body.user.id, token: body.login.access_token };
}

const me = async (credential: string) => await (await t.request('/api/v1/users/me', { token: credential })).json();
const keyList = async (credential: string) =>
  (await (await t.request('/api/v1/api-keys', { token: credential })).json()).data as any[];

describe('keys of a removed member', () => {
  it('are refused on the next request and listed as revoked because their creator was removed', async () => {
    const owner = await t.signup();
    const admin = await addAdmin(owner);
    const key = await t.createKey(admin.token, 'admin key');
    const ownerKey = await t.createKey(owner.token, 'owner key');
    expect((await t.request('/api/v1/api-keys', { token: key.key })).status).toBe(200);
    expect((await t.request(`/api/v1/members/${admin.userId}`, { method: 'DELETE', token: owner.token })).status).toBe(
      204,
    );
    expect((await t.request('/api/v1/api-keys', { token: key.key })).status).toBe(401);
    expect((await t.request('/api/v1/api-keys', { method: 'POST', token: key.key, json: { name: 'x' } })).status).toBe(
      401,
    );
    expect(
      (
        await t.request('/api/v1/invitations', {
          method: 'POST',
          token: key.key,
          json: { email: uniqueEmail(), role: 'admin' },
        })
      ).status,
    ).toBe(401);
    expect((await t.request('/api/v1/users/me', { token: key.key })).status).toBe(401);
    const listed = await keyList(owner.token);
    expect(listed.find((k) => k.id === key.id)).toMatchObject({
      created_by: admin.userId,
      effective_role: null,
      revoked_reason: 'creator_removed',
    });
    expect(listed.find((k) => k.id === key.id).revoked_at).not.toBeNull();
    expect(listed.find((k) => k.id === ownerKey.id)).toMatchObject({
      revoked_at: null,
      revoked_reason: null,
      effective_role: 'admin',
    });
    expect((await t.request('/api/v1/users/me', { token: ownerKey.key })).status).toBe(200);
  });
});

describe('keys of a demoted member', () => {
  it('act as a member from the next request on, and as an admin again after a promotion', async () => {
    const owner = await t.signup();
    const admin = await addAdmin(owner);
    const key = await t.createKey(admin.token);
    expect((await me(key.key)).role).toBe('admin');
    const demote = await t.request(`/api/v1/members/${admin.userId}`, {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'member' },
    });
    expect(demote.status).toBe(200);
    expect((await me(key.key)).role).toBe('member');
    expect((await t.request('/api/v1/api-keys', { token: key.key })).status).toBe(403);
    expect((await t.request('/api/v1/api-keys', { method: 'POST', token: key.key, json: { name: 'x' } })).status).toBe(
      403,
    );
    expect((await keyList(owner.token)).find((k) => k.id === key.id)).toMatchObject({
      role: 'admin',
      effective_role: 'member',
      revoked_at: null,
    });
    await t.request(`/api/v1/members/${admin.userId}`, {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'admin' },
    });
    expect((await me(key.key)).role).toBe('admin');
  });
});

describe('the role a key acts with', () => {
  it('is admin for a key the owner minted, whose list entry names its creator', async () => {
    const owner = await t.signup();
    const key = await t.createKey(owner.token);
    expect(await me(key.key)).toMatchObject({ role: 'admin', user: { id: owner.userId } });
    expect((await keyList(owner.token))[0]).toMatchObject({
      id: key.id,
      created_by: owner.userId,
      role: 'admin',
      effective_role: 'admin',
    });
  });

  it('is the role the operator CLI gave a key it minted', async () => {
    const owner = await t.signup();
    const commands = createAdminCommands(t.deps);
    const memberKey = await commands.mintKey({
      workspaceId: owner.workspaceId,
      name: 'read-only cron',
      role: 'member',
    });
    const adminKey = await commands.mintKey({ workspaceId: owner.workspaceId, name: 'ops' });
    expect(await me(memberKey.key)).toMatchObject({ role: 'member', user: null });
    expect((await t.request('/api/v1/api-keys', { token: memberKey.key })).status).toBe(403);
    expect((await me(adminKey.key)).role).toBe('admin');
    const listed = await keyList(owner.token);
    expect(listed.find((k) => k.id === memberKey.id)).toMatchObject({
      created_by: null,
      role: 'member',
      effective_role: 'member',
    });
  });
});
