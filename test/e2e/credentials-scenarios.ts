// End-to-end credential scenarios through the generated SDK over real HTTP. Each takes a target, so
// the same steps run against the server directly and behind `prism proxy --errors`.
import { expect } from 'vitest';
import { ApiProblemError, type Client } from '../../src/generated/sdk.ts';
import { uniqueEmail } from '../helpers/app.ts';
import type { E2eTarget } from './target.ts';

const password = 'correct horse battery';

async function problem(call: Promise<unknown>): Promise<ApiProblemError<{ code: string; detail: string }>> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiProblemError);
  return error as ApiProblemError<{ code: string; detail: string }>;
}

async function signUp(target: E2eTarget, tag: string): Promise<{ client: Client; userId: string; email: string }> {
  const email = uniqueEmail(tag);
  const session = await target
    .client()
    .signup({ email, password, name: `${tag} owner`, workspace_name: `${tag} workspace` });
  return { client: target.client(session.login.access_token), userId: session.user.id, email };
}

async function addMember(target: E2eTarget, admin: Client, role: 'admin' | 'member') {
  const invitation = await admin.invite_member({ email: uniqueEmail('invitee'), role });
  const session = await target
    .client()
    .accept_invitation({ token: invitation.token, name: 'Invited Person', password });
  return { invitation, session, client: target.client(session.login.access_token) };
}

/** signup → login → me → create key → list keys → use key → revoke key → key rejected. */
export async function apiKeyJourney(target: E2eTarget): Promise<void> {
  const email = uniqueEmail('keys');
  const session = await target.client().signup({ email, password, name: 'Key Owner', workspace_name: 'Keys' });
  expect(session.role).toBe('owner');
  const login = await target.client().login({ email, password });
  expect(login.token_type).toBe('bearer');
  const owner = target.client(login.access_token);
  const me = await owner.get_me();
  expect(me).toMatchObject({
    user: { id: session.user.id },
    workspace: { id: session.workspace.id },
    role: 'owner',
    credential: { type: 'jwt' },
  });

  const created = await owner.create_api_key({ name: 'e2e key' });
  const listed = await owner.list_api_keys({ limit: 10 });
  expect(listed.data.map((k) => k.id)).toContain(created.id);
  expect(listed.data.find((k) => k.id === created.id)).not.toHaveProperty('key');

  const byKey = target.client(created.key);
  expect((await byKey.get_me()).credential).toMatchObject({ type: 'api_key', id: created.id, scopes: ['*'] });
  expect((await byKey.list_api_keys()).data.map((k) => k.id)).toContain(created.id);

  const revoked = await owner.revoke_api_key({ key_id: created.id });
  expect(revoked.revoked_at).not.toBeNull();
  const rejected = await problem(byKey.get_me());
  expect(rejected.status).toBe(401);
}

/** invite → accept invitation → list members → change role → remove member → member rejected. */
export async function memberJourney(target: E2eTarget): Promise<void> {
  const owner = await signUp(target, 'members');
  const { invitation, session, client: member } = await addMember(target, owner.client, 'member');
  expect(session.role).toBe('member');
  expect(session.user.email).toBe(invitation.email);

  const members = await owner.client.list_members();
  expect(members.data.map((m) => [m.user_id, m.role])).toEqual(
    expect.arrayContaining([
      [owner.userId, 'owner'],
      [session.user.id, 'member'],
    ]),
  );
  expect((await problem(member.invite_member({ email: uniqueEmail('nope'), role: 'member' }))).status).toBe(403);

  const promoted = await owner.client.update_member_role({ user_id: session.user.id, role: 'admin' });
  expect(promoted.role).toBe('admin');
  expect((await member.list_api_keys()).data).toEqual([]);

  await owner.client.remove_member({ user_id: session.user.id });
  expect((await problem(member.get_me())).status).toBe(401);
  expect((await owner.client.list_members()).data.map((m) => m.user_id)).toEqual([owner.userId]);
}

/** login failure 401 → validation errors 400 → 404 for another workspace's ids. */
export async function refusals(target: E2eTarget): Promise<void> {
  const owner = await signUp(target, 'refusals');
  const wrongPassword = await problem(target.client().login({ email: owner.email, password: 'not the password' }));
  const unknownEmail = await problem(target.client().login({ email: uniqueEmail('ghost'), password }));
  expect([wrongPassword.status, unknownEmail.status]).toEqual([401, 401]);
  expect(wrongPassword.problem.detail).toBe(unknownEmail.problem.detail);

  await target.expectInvalidRequest(
    target.client().signup({ email: 'not-an-email', password, name: 'X', workspace_name: 'X' }),
    'email',
  );
  // Valid for the contract, so the proxy forwards it and checks the server's own 400 on the way back.
  const badCursor = await problem(owner.client.list_api_keys({ cursor: 'not-a-cursor-this-api-returned' }));
  expect([badCursor.status, badCursor.problem.code]).toEqual([400, 'invalid_cursor']);

  const other = await signUp(target, 'foreign');
  const foreignKey = await other.client.create_api_key({ name: 'not yours' });
  const foreignMember = await addMember(target, other.client, 'member');
  const foreignCalls = [
    () => owner.client.revoke_api_key({ key_id: foreignKey.id }),
    () => owner.client.update_member_role({ user_id: foreignMember.session.user.id, role: 'admin' }),
    () => owner.client.remove_member({ user_id: foreignMember.session.user.id }),
  ];
  for (const call of foreignCalls) expect((await problem(call())).status).toBe(404);
  expect((await other.client.list_api_keys()).data.find((k) => k.id === foreignKey.id)?.revoked_at).toBeNull();
}

/** invite an existing account → public accept refused (409) whatever the password → log in → accept as me. */
export async function existingAccountInvitation(target: E2eTarget): Promise<void> {
  const inviter = await signUp(target, 'inviter');
  const invitee = await signUp(target, 'invitee');
  const invitation = await inviter.client.invite_member({ email: invitee.email, role: 'member' });
  for (const guess of ['not the password', password]) {
    const refused = await problem(
      target.client().accept_invitation({ token: invitation.token, name: 'Guess', password: guess }),
    );
    expect([refused.status, refused.problem.code]).toEqual([409, 'account_exists']);
  }
  const login = await target.client().login({ email: invitee.email, password });
  const session = await target.client(login.access_token).accept_invitation_as_me({ token: invitation.token });
  expect(session).toMatchObject({ role: 'member', user: { id: invitee.userId } });
  const joined = await target.client(session.login.access_token).get_me();
  expect(joined).toMatchObject({ role: 'member', user: { id: invitee.userId } });
}

/** an admin mints a key → is demoted (key acts as member) → is removed (key refused, listed as revoked). */
export async function departedAdminKey(target: E2eTarget): Promise<void> {
  const owner = await signUp(target, 'departing');
  const { session, client: admin } = await addMember(target, owner.client, 'admin');
  const minted = await admin.create_api_key({ name: 'admin key' });
  const byKey = target.client(minted.key);
  expect((await byKey.get_me()).role).toBe('admin');

  await owner.client.update_member_role({ user_id: session.user.id, role: 'member' });
  expect((await byKey.get_me()).role).toBe('member');
  expect((await problem(byKey.list_api_keys())).status).toBe(403);

  await owner.client.remove_member({ user_id: session.user.id });
  expect((await problem(byKey.get_me())).status).toBe(401);
  const listed = (await owner.client.list_api_keys()).data.find((k) => k.id === minted.id);
  expect(listed).toMatchObject({
    created_by: session.user.id,
    role: 'admin',
    effective_role: null,
    revoked_reason: 'creator_removed',
  });
}

export const credentialScenarios = {
  apiKeyJourney,
  memberJourney,
  refusals,
  existingAccountInvitation,
  departedAdminKey,
};
