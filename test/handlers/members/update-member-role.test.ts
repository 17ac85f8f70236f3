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
  const res = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token: inv.token, name: 'New Member', password: 'member password' },
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { user: { id: string }; login: { access_token: string }; role: string };
  return { userId: body.user.id, token: body.login.access_token, role: body.role, email: inv.email };
}

describe('update_member_role', () => {
  it('changes a role, and the member’s next request carries the new role', async () => {
    const admin = await t.signup();
    const member = await join(admin, 'member');
    expect((await t.request('/api/v1/api-keys', { token: member.token })).status).toBe(403);
    const res = await t.request(`/api/v1/members/${member.userId}`, {
      method: 'PATCH',
      token: admin.token,
      json: { role: 'admin' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).role).toBe('admin');
    expect((await t.request('/api/v1/api-keys', { token: member.token })).status).toBe(200);
  });
});
