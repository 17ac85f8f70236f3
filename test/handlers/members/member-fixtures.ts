// Invitations through the real app: an admin invites, and the invitee accepts and logs in.
import { expect } from 'vitest';
import { uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

export async function invite(
  t: TestApp,
  admin: SignupResult,
  role: 'admin' | 'member' = 'member',
  email = uniqueEmail('invitee'),
) {
  const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role } });
  expect(res.status).toBe(201);
  return { email, ...((await res.json()) as { id: string; token: string; expires_at: string; role: string }) };
}

export async function join(t: TestApp, admin: SignupResult, role: 'admin' | 'member' = 'member') {
  const inv = await invite(t, admin, role);
  const res = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token: inv.token, name: 'New Member', password: 'member password' },
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { user: { id: string }; login: { access_token: string }; role: string };
  return { userId: body.user.id, token: body.login.access_token, role: body.role, email: inv.email };
}
