// A person removed from their only workspace keeps their account: they log in to an account login
// (no workspace), which accepts an invitation and is refused everywhere else with 403 no_workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const password = 'member password';

async function invite(owner: SignupResult, email: string): Promise<string> {
  const res = await t.request('/api/v1/invitations', {
    method: 'POST',
    token: owner.token,
    json: { email, role: 'member' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

async function login(email: string, workspaceId?: string): Promise<Response> {
  return t.request('/api/v1/users/login', {
    method: 'POST',
    json: { email, password, ...(workspaceId && { workspace_id: workspaceId }) },
  });
}

/** Owner invites, the member accepts with a new account, the owner removes them: their only workspace is gone. */
async function removedMember(owner: SignupResult): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail('returning');
  const accepted = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token: await invite(owner, email), name: 'Returning Member', password },
  });
  expect(accepted.status).toBe(201);
  const userId = ((await accepted.json()) as { user: { id: string } }).user.id;
  expect((await t.request(`/api/v1/members/${userId}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
  return { email, userId };
}

async function accountLogin(email: string): Promise<string> {
  const res = await login(email);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function expectNoWorkspace(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  const problem = (await res.json()) as { code: string; detail: string };
  expect(problem.code).toBe('no_workspace');
  expect(problem.detail).toContain('accept_invitation_as_me');
}

describe('a member removed from their only workspace', () => {
  it('logs in, accepts a new invitation with that login and works in the workspace again', async () => {
    const owner = await t.signup();
    const { email, userId } = await removedMember(owner);
    const again = await invite(owner, email);
    // The paths that failed before: a new account for the address, and a login.
    const signupAgain = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: again, name: 'Returning Member', password },
    });
    expect(signupAgain.status).toBe(409);
    const account = await accountLogin(email);
    const joined = await t.request('/api/v1/invitations/accept-as-me', {
      method: 'POST',
      token: account,
      json: { token: again },
    });
    expect(joined.status).toBe(201);
    const session = (await joined.json()) as {
      workspace: { id: string };
      role: string;
      login: { access_token: string };
    };
    expect(session).toMatchObject({ workspace: { id: owner.workspaceId }, role: 'member' });
    const token = session.login.access_token;
    const lead = await t.request('/api/v1/leads', { method: 'POST', token, json: { email: uniqueEmail('lead') } });
    expect(lead.status).toBe(201);
    const members = (await (await t.request('/api/v1/members', { token })).json()) as { data: { user_id: string }[] };
    expect(members.data.map((m) => m.user_id)).toContain(userId);
    // Logging in now reaches the workspace, not an account login.
    const me = await t.request('/api/v1/users/me', {
      token: ((await (await login(email)).json()) as { access_token: string }).access_token,
    });
    expect(((await me.json()) as { workspace: { id: string } }).workspace.id).toBe(owner.workspaceId);
  });

  it('is refused with 403 no_workspace by every workspace operation and by /mcp while it has no workspace', async () => {
    const owner = await t.signup();
    const { email } = await removedMember(owner);
    const account = await accountLogin(email);
    await expectNoWorkspace(await t.request('/api/v1/users/me', { token: account }));
    await expectNoWorkspace(await t.request('/api/v1/leads', { token: account }));
    await expectNoWorkspace(await t.request('/api/v1/members', { token: account }));
    await expectNoWorkspace(
      await t.request('/api/v1/api-keys', { method: 'POST', token: account, json: { name: 'k', role: 'member' } }),
    );
    await expectNoWorkspace(
      await t.request(`/api/v1/invitations`, {
        method: 'POST',
        token: account,
        json: { email: uniqueEmail(), role: 'member' },
      }),
    );
    const mcp = await t.request('/mcp', {
      method: 'POST',
      token: account,
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    await expectNoWorkspace(mcp);
  });

  it('still answers 401 for a wrong password, and for a workspace asked for by id that is no longer theirs', async () => {
    const owner = await t.signup();
    const { email } = await removedMember(owner);
    const wrong = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email, password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect((await login(email, owner.workspaceId)).status).toBe(401);
  });

  it('cannot accept an invitation sent to another address with its account login', async () => {
    const owner = await t.signup();
    const { email } = await removedMember(owner);
    const account = await accountLogin(email);
    const other = await invite(owner, uniqueEmail('other'));
    const res = await t.request('/api/v1/invitations/accept-as-me', {
      method: 'POST',
      token: account,
      json: { token: other },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('forbidden');
  });

  it('keeps an Idempotency-Key of an account login to its person, not shared with others at the same address', async () => {
    const owner = await t.signup();
    const first = await removedMember(owner);
    const second = await removedMember(owner);
    const key = `rejoin-${Date.now()}`;
    const accept = async (email: string) => {
      const token = await invite(owner, email);
      return t.request('/api/v1/invitations/accept-as-me', {
        method: 'POST',
        token: await accountLogin(email),
        headers: { 'Idempotency-Key': key },
        json: { token },
      });
    };
    const firstJoined = (await (await accept(first.email)).json()) as { user: { id: string } };
    const secondJoined = (await (await accept(second.email)).json()) as { user: { id: string } };
    expect(firstJoined.user.id).toBe(first.userId);
    expect(secondJoined.user.id).toBe(second.userId);
  });
});
