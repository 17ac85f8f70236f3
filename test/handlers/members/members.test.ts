import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let now = new Date('2026-11-21T10:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t?.close());

async function invite(admin: SignupResult, role: 'admin' | 'member' = 'member', email = uniqueEmail('invitee')) {
  const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role } });
  expect(res.status).toBe(201);
  return { email, ...((await res.json()) as { id: string; token: string; expires_at: string; role: string }) };
}

async function join(admin: SignupResult, role: 'admin' | 'member' = 'member') {
  const inv = await invite(admin, role);
  const res = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token: inv.token, name: 'New Member', password: 'member password' } });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { user: { id: string }; login: { access_token: string }; role: string };
  return { userId: body.user.id, token: body.login.access_token, role: body.role, email: inv.email };
}

describe('invitations', () => {
  it('returns a one-time token valid 72 hours that joins the workspace with the invited role', async () => {
    const admin = await t.signup();
    const inv = await invite(admin, 'admin');
    expect(new Date(inv.expires_at).getTime() - now.getTime()).toBe(72 * 3600 * 1000);
    expect(inv.id).toMatch(/^inv_/);
    const res = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token: inv.token, name: 'Grace', password: 'grace password' } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ role: 'admin', workspace: { id: admin.workspaceId }, user: { email: inv.email, name: 'Grace' } });
    const again = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token: inv.token, name: 'Grace', password: 'grace password' } });
    expect(again.status).toBe(404);
  });

  it('refuses an invitation older than 72 hours', async () => {
    const admin = await t.signup();
    const inv = await invite(admin);
    now = new Date(now.getTime() + 72 * 3600 * 1000 + 1000);
    const res = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token: inv.token, name: 'Late', password: 'late password' } });
    expect(res.status).toBe(404);
  });

  it('refuses to invite someone who is already a member with 409', async () => {
    const admin = await t.signup();
    const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email: admin.email, role: 'member' } });
    expect(res.status).toBe(409);
  });

  it('stores only a hash of the invitation token', async () => {
    const admin = await t.signup();
    const inv = await invite(admin);
    const rows = await t.deps.db.sql`select token_hash from invitations where id = ${inv.id}`;
    expect(rows[0].token_hash).not.toContain(inv.token);
    expect(JSON.stringify(rows)).not.toContain(inv.token);
  });
});

describe('members', () => {
  it('lists members oldest first with cursor pagination', async () => {
    const admin = await t.signup();
    for (let i = 0; i < 3; i++) {
      now = new Date(now.getTime() + 1000);
      await join(admin);
    }
    const first = (await (await t.request('/api/v1/members?limit=2', { token: admin.token })).json()) as any;
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({ user_id: admin.userId, role: 'owner' });
    expect(first.has_more).toBe(true);
    const second = (await (await t.request(`/api/v1/members?limit=2&cursor=${first.next_cursor}`, { token: admin.token })).json()) as any;
    expect(second.data).toHaveLength(2);
    expect(second.has_more).toBe(false);
    expect(second.next_cursor).toBeNull();
    const ids = [...first.data, ...second.data].map((m: any) => m.user_id);
    expect(new Set(ids).size).toBe(4);
  });

  it('rejects a cursor it did not issue with 400', async () => {
    const admin = await t.signup();
    const res = await t.request('/api/v1/members?cursor=garbage', { token: admin.token });
    expect(res.status).toBe(400);
  });

  it('changes a role, and the member’s next request carries the new role', async () => {
    const admin = await t.signup();
    const member = await join(admin, 'member');
    expect((await t.request('/api/v1/api-keys', { token: member.token })).status).toBe(403);
    const res = await t.request(`/api/v1/members/${member.userId}`, { method: 'PATCH', token: admin.token, json: { role: 'admin' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).role).toBe('admin');
    expect((await t.request('/api/v1/api-keys', { token: member.token })).status).toBe(200);
  });

  it('removes a member, whose token stops working on the next request', async () => {
    const admin = await t.signup();
    const member = await join(admin);
    expect((await t.request('/api/v1/users/me', { token: member.token })).status).toBe(200);
    const res = await t.request(`/api/v1/members/${member.userId}`, { method: 'DELETE', token: admin.token });
    expect(res.status).toBe(204);
    const after = await t.request('/api/v1/users/me', { token: member.token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses to change or remove the owner with 409', async () => {
    const admin = await t.signup();
    const other = await join(admin, 'admin');
    expect((await t.request(`/api/v1/members/${admin.userId}`, { method: 'DELETE', token: other.token })).status).toBe(409);
    expect((await t.request(`/api/v1/members/${admin.userId}`, { method: 'PATCH', token: other.token, json: { role: 'member' } })).status).toBe(409);
  });

  it('lets only admins change members (403 for a member)', async () => {
    const admin = await t.signup();
    const member = await join(admin);
    const target = await join(admin);
    expect((await t.request(`/api/v1/members/${target.userId}`, { method: 'DELETE', token: member.token })).status).toBe(403);
    expect((await t.request('/api/v1/invitations', { method: 'POST', token: member.token, json: { email: uniqueEmail(), role: 'member' } })).status).toBe(403);
  });
});

describe('workspace isolation of members', () => {
  it('answers 404 for a member of another workspace, exactly as for a missing id', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const missing = await t.request('/api/v1/members/usr_00000000000000000000000000', { method: 'DELETE', token: a.token });
    const foreign = await t.request(`/api/v1/members/${b.userId}`, { method: 'DELETE', token: a.token });
    const foreignPatch = await t.request(`/api/v1/members/${b.userId}`, { method: 'PATCH', token: a.token, json: { role: 'member' } });
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreignPatch.status).toBe(404);
    const strip = (x: any) => ({ ...x, request_id: undefined, instance: undefined });
    expect(strip(await foreign.json())).toEqual(strip(await missing.json()));
    const list = (await (await t.request('/api/v1/members', { token: a.token })).json()) as any;
    expect(list.data.map((m: any) => m.user_id)).toEqual([a.userId]);
  });
});
