// Operations run without an HTTP request (as the operator CLI and background jobs run them) apply
// the same normalisation and checks, with the same errors, as the REST calls that adapt them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminCommands } from '../../scripts/admin/commands.ts';
import { ApiError } from '../../src/errors.ts';
import { operatorActor, type Actor } from '../../src/handlers/actor.ts';
import { createApiKey } from '../../src/handlers/api-keys/create-api-key.ts';
import { revokeApiKey } from '../../src/handlers/api-keys/revoke-api-key.ts';
import { inviteMember } from '../../src/handlers/members/invite-member.ts';
import { removeMember } from '../../src/handlers/members/remove-member.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The problem a REST call answered, as the code and detail an ApiError carries. */
async function problemOf(res: Response) {
  const body = (await res.json()) as { code: string; detail: string };
  return { status: res.status, code: body.code, message: body.detail };
}

async function errorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, message } = error as ApiError;
  return { status, code, message };
}

async function memberOf(workspace: { token: string }) {
  const email = uniqueEmail('member');
  const inv = await t.request('/api/v1/invitations', {
    method: 'POST',
    token: workspace.token,
    json: { email, role: 'member' },
  });
  const token = ((await inv.json()) as { token: string }).token;
  const res = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token, name: 'Member', password: 'member password' },
  });
  const body = (await res.json()) as { user: { id: string }; login: { access_token: string } };
  return { userId: body.user.id, token: body.login.access_token };
}

describe('create-workspace (operator CLI) and signup', () => {
  it('stores the owner the same way: trimmed email, owner membership, a working login', async () => {
    const email = uniqueEmail('ops');
    const cli = await createAdminCommands(t.deps).createWorkspace({
      name: 'Acme',
      ownerEmail: `  ${email} `,
      ownerName: 'Ops',
      password: 'operator password',
    });
    const rest = await t.signup();
    const rows = await t.deps.db.sql<{ email: string; role: string }[]>`
      select u.email, m.role from users u join memberships m on m.user_id = u.id where u.id in ${t.deps.db.sql([cli.userId, rest.userId])} order by u.email`;
    expect(rows.map((r) => r.role)).toEqual(['owner', 'owner']);
    expect(rows.map((r) => r.email)).toContain(email);
    expect(rows.map((r) => r.email)).toContain(rest.email);
    const login = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email, password: 'operator password' },
    });
    expect(login.status).toBe(200);
  });

  it('refuses an invalid email with the field error the contract gives the REST call', async () => {
    const json = { email: 'not-an-email', password: 'long enough pw', name: 'B', workspace_name: 'Invalid' };
    const rest = (await (await t.request('/api/v1/users/signup', { method: 'POST', json })).json()) as {
      code: string;
      errors: unknown[];
    };
    const cli = createAdminCommands(t.deps).createWorkspace({
      name: 'Invalid',
      ownerEmail: json.email,
      ownerName: 'B',
      password: json.password,
    });
    const error = (await cli.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect({ code: error.code, errors: error.errors }).toEqual({ code: rest.code, errors: rest.errors });
  });

  it('refuses an email that has an account in any letter case with the error signup answers', async () => {
    const owner = await t.signup();
    const rest = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email: owner.email.toUpperCase(), password: 'long enough pw', name: 'B', workspace_name: 'Duplicate' },
    });
    const cli = createAdminCommands(t.deps).createWorkspace({
      name: 'Duplicate',
      ownerEmail: ` ${owner.email.toUpperCase()}`,
      ownerName: 'B',
      password: 'long enough pw',
    });
    expect(await errorOf(cli)).toEqual(await problemOf(rest));
    const workspaces = await t.deps.db.sql`select 1 from workspaces where name = 'Duplicate'`;
    expect(workspaces).toHaveLength(0);
  });
});

describe('operations run with a member actor', () => {
  it('refuses to mint a key with the same forbidden error as the REST call', async () => {
    const owner = await t.signup();
    const member = await memberOf(owner);
    const rest = await t.request('/api/v1/api-keys', { method: 'POST', token: member.token, json: { name: 'nope' } });
    const actor: Actor = { kind: 'user', workspaceId: owner.workspaceId, userId: member.userId, role: 'member' };
    expect(await errorOf(createApiKey(t.deps, actor, { name: 'nope' }))).toEqual(await problemOf(rest));
    const keys = await t.deps.db.sql`select 1 from api_keys where workspace_id = ${owner.workspaceId}`;
    expect(keys).toHaveLength(0);
  });

  it('refuses to invite with the same forbidden error as the REST call', async () => {
    const owner = await t.signup();
    const member = await memberOf(owner);
    const json = { email: uniqueEmail('x'), role: 'member' };
    const rest = await t.request('/api/v1/invitations', { method: 'POST', token: member.token, json });
    const actor: Actor = { kind: 'user', workspaceId: owner.workspaceId, userId: member.userId, role: 'member' };
    expect(await errorOf(inviteMember(t.deps, actor, { email: json.email, role: 'member' }))).toEqual(
      await problemOf(rest),
    );
  });
});

describe('operations run with an operator actor', () => {
  it('cannot reach a key of another workspace, answering the 404 the REST call answers', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const key = await t.createKey(a.token);
    const rest = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: b.token });
    expect(await errorOf(revokeApiKey(t.deps, await operatorActor(t.deps, b.workspaceId), key.id))).toEqual(
      await problemOf(rest),
    );
    expect((await t.request('/api/v1/users/me', { token: key.key })).status).toBe(200);
  });

  it('removes a member as a job would: their keys stop working before it returns', async () => {
    const owner = await t.signup();
    const member = await memberOf(owner);
    await t.request(`/api/v1/members/${member.userId}`, {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'admin' },
    });
    const adminKey = await t.createKey(member.token);
    expect((await t.request('/api/v1/users/me', { token: adminKey.key })).status).toBe(200);
    await removeMember(t.deps, await operatorActor(t.deps, owner.workspaceId), member.userId);
    expect((await t.request('/api/v1/users/me', { token: adminKey.key })).status).toBe(401);
    const [row] = await t.deps.db.sql<
      { revoked_reason: string }[]
    >`select revoked_reason from api_keys where id = ${adminKey.id}`;
    expect(row.revoked_reason).toBe('creator_removed');
  });

  it('refuses an operator actor for a workspace that does not exist', async () => {
    expect(await errorOf(operatorActor(t.deps, 'ws_00000000000000000000000000'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});
