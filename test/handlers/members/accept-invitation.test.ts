// Invitations for an email that already has an account: the public path never checks that account's
// password (it is no oracle), and the invitee accepts with their own login instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function invite(admin: SignupResult, email: string, role: 'admin' | 'member' = 'member'): Promise<string> {
  const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const acceptPublic = (token: string, password: string) =>
  t.request('/api/v1/invitations/accept', { method: 'POST', json: { token, name: 'Someone', password } });
const acceptAsMe = (token: string, credential: string) =>
  t.request('/api/v1/invitations/accept-as-me', { method: 'POST', token: credential, json: { token } });
const strip = (body: Record<string, unknown>) => ({ ...body, request_id: undefined });

describe('accept_invitation for an email that already has an account', () => {
  it('answers 409 account_exists the same for the right and a wrong password, and leaves the token usable', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const token = await invite(inviter, invitee.email);
    const wrong = await acceptPublic(token, 'not the password at all');
    const right = await acceptPublic(token, invitee.password);
    expect([wrong.status, right.status]).toEqual([409, 409]);
    const wrongBody = (await wrong.json()) as Record<string, unknown>;
    expect(wrongBody.code).toBe('account_exists');
    expect(strip(wrongBody)).toEqual(strip((await right.json()) as Record<string, unknown>));
    expect((await acceptAsMe(token, invitee.token)).status).toBe(201);
  });

  it('gives no session and no membership for the right password', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const token = await invite(inviter, invitee.email);
    const res = await acceptPublic(token, invitee.password);
    expect(JSON.stringify(await res.json())).not.toContain('access_token');
    const rows = await t.deps.db
      .sql`select 1 from memberships where workspace_id = ${inviter.workspaceId} and user_id = ${invitee.userId}`;
    expect(rows.length).toBe(0);
  });
});
