// Invitations for an email that already has an account: the public path never checks that account's
// password (it is no oracle), and the invitee accepts with their own login instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

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

describe('accept_invitation_as_me', () => {
  it('joins the invited workspace with the invited role and answers with a login for it', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const token = await invite(inviter, invitee.email.toUpperCase(), 'admin');
    const res = await acceptAsMe(token, invitee.token);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ role: 'admin', user: { id: invitee.userId }, workspace: { id: inviter.workspaceId } });
    const me = await (await t.request('/api/v1/users/me', { token: body.login.access_token })).json();
    expect(me).toMatchObject({ role: 'admin', workspace: { id: inviter.workspaceId }, user: { id: invitee.userId } });
    expect((await acceptAsMe(token, invitee.token)).status).toBe(404);
  });

  it('refuses a login of someone other than the invited person with 403 and keeps the token', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const stranger = await t.signup();
    const token = await invite(inviter, invitee.email);
    const res = await acceptAsMe(token, stranger.token);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('forbidden');
    expect((await acceptAsMe(token, invitee.token)).status).toBe(201);
  });

  it('refuses an API key with 403, even one minted by the invited person', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const key = await t.createKey(invitee.token);
    const token = await invite(inviter, invitee.email);
    expect((await acceptAsMe(token, key.key)).status).toBe(403);
  });

  it('requires a credential (401) and a valid token (404)', async () => {
    const invitee = await t.signup();
    expect(
      (await t.request('/api/v1/invitations/accept-as-me', { method: 'POST', json: { token: 'inv_x' } })).status,
    ).toBe(401);
    expect((await acceptAsMe('inv_unknown', invitee.token)).status).toBe(404);
  });

  it('answers 409 when the invitee is already a member of the workspace', async () => {
    const inviter = await t.signup();
    const invitee = await t.signup();
    const first = await invite(inviter, invitee.email);
    expect((await acceptAsMe(first, invitee.token)).status).toBe(201);
    await t.deps.db.sql`update invitations set accepted_at = null where workspace_id = ${inviter.workspaceId}`;
    expect((await acceptAsMe(first, invitee.token)).status).toBe(409);
  });

  it('leaves the public path to new accounts, which it still creates', async () => {
    const inviter = await t.signup();
    const email = uniqueEmail('fresh');
    const res = await acceptPublic(await invite(inviter, email), 'a new password');
    expect(res.status).toBe(201);
    expect((await res.json()).user.email).toBe(email);
  });
});
