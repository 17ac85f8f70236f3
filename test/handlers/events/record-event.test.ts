import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminCommands } from '../../../scripts/admin/commands.ts';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function eventsOf(workspaceId: string) {
  return t.deps.db.sql<{ type: string; data: any; actor: any }[]>`
    select type, data, actor from events where workspace_id = ${workspaceId} order by created_at, id`;
}

/** The events a workspace gained while `act` ran. */
async function recorded(workspaceId: string, act: () => Promise<unknown>) {
  const before = (await eventsOf(workspaceId)).length;
  await act();
  return (await eventsOf(workspaceId)).slice(before);
}

async function invite(admin: SignupResult, email = uniqueEmail('invitee'), role: 'admin' | 'member' = 'member') {
  const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role } });
  expect(res.status).toBe(201);
  return { email, ...((await res.json()) as { token: string }) };
}

async function join(admin: SignupResult, role: 'admin' | 'member' = 'member') {
  const inv = await invite(admin, uniqueEmail('invitee'), role);
  const res = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token: inv.token, name: 'New Member', password: 'member password' },
  });
  expect(res.status).toBe(201);
  const body = await res.json();
  return { userId: body.user.id as string, token: body.login.access_token as string };
}

describe('events of API keys', () => {
  it('records api_key.created with the key as the API shows it, without its secret, by the minting user', async () => {
    const admin = await t.signup();
    let created: any;
    const events = await recorded(admin.workspaceId, async () => {
      created = await (
        await t.request('/api/v1/api-keys', { method: 'POST', token: admin.token, json: { name: 'ci' } })
      ).json();
    });
    const { key, ...shown } = created;
    expect(events).toEqual([{ type: 'api_key.created', data: shown, actor: { type: 'user', id: admin.userId } }]);
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it('records api_key.revoked once, naming the key that acted, and nothing for a repeated revoke', async () => {
    const admin = await t.signup();
    const acting = await t.createKey(admin.token, 'acting');
    const target = await t.createKey(admin.token, 'target');
    let revoked: any;
    const events = await recorded(admin.workspaceId, async () => {
      revoked = await (
        await t.request(`/api/v1/api-keys/${target.id}`, { method: 'DELETE', token: acting.key })
      ).json();
      expect((await t.request(`/api/v1/api-keys/${target.id}`, { method: 'DELETE', token: acting.key })).status).toBe(
        200,
      );
    });
    expect(events).toEqual([{ type: 'api_key.revoked', data: revoked, actor: { type: 'api_key', id: acting.id } }]);
  });

  it('records nothing when the key belongs to another workspace (404)', async () => {
    const admin = await t.signup();
    const other = await t.signup();
    const foreign = await t.createKey(other.token);
    const events = await recorded(other.workspaceId, async () => {
      expect((await t.request(`/api/v1/api-keys/${foreign.id}`, { method: 'DELETE', token: admin.token })).status).toBe(
        404,
      );
    });
    expect(events).toEqual([]);
    expect((await eventsOf(admin.workspaceId)).map((e) => e.type)).toEqual(['workspace.created']);
  });

  it("records the operator CLI's mint-key as api_key.created by the operator", async () => {
    const admin = await t.signup();
    const events = await recorded(admin.workspaceId, () =>
      createAdminCommands(t.deps).mintKey({ workspaceId: admin.workspaceId, name: 'cron' }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'api_key.created',
      data: { name: 'cron', created_by: null },
      actor: { type: 'operator', id: null },
    });
  });
});

describe('events of members', () => {
  it('records workspace.created at signup, by the new owner', async () => {
    const owner = await t.signup({ workspace_name: 'Acme' });
    expect(await eventsOf(owner.workspaceId)).toEqual([
      {
        type: 'workspace.created',
        data: { id: owner.workspaceId, name: 'Acme', created_at: expect.any(String) },
        actor: { type: 'user', id: owner.userId },
      },
    ]);
  });

  it('records member.added by the joining person, on the public and the as-me path', async () => {
    const admin = await t.signup();
    const existing = await t.signup();
    const inv = await invite(admin, existing.email);
    let joined: { userId: string } | undefined;
    const events = await recorded(admin.workspaceId, async () => {
      joined = await join(admin);
      expect(
        (
          await t.request('/api/v1/invitations/accept-as-me', {
            method: 'POST',
            token: existing.token,
            json: { token: inv.token },
          })
        ).status,
      ).toBe(201);
    });
    const members = await (await t.request('/api/v1/members?limit=100', { token: admin.token })).json();
    const shown = (id: string) => members.data.find((m: any) => m.user_id === id);
    expect(events).toEqual([
      { type: 'member.added', data: shown(joined!.userId), actor: { type: 'user', id: joined!.userId } },
      { type: 'member.added', data: shown(existing.userId), actor: { type: 'user', id: existing.userId } },
    ]);
    expect(JSON.stringify(events)).not.toContain(inv.token);
  });

  it("records member.removed and the revoke of the member's keys", async () => {
    const admin = await t.signup();
    const member = await join(admin, 'admin');
    const key = await t.createKey(member.token);
    const events = await recorded(admin.workspaceId, async () => {
      expect(
        (await t.request(`/api/v1/members/${member.userId}`, { method: 'DELETE', token: admin.token })).status,
      ).toBe(204);
    });
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ['member.removed', { type: 'user', id: admin.userId }],
      ['api_key.revoked', { type: 'user', id: admin.userId }],
    ]);
    expect(events[0].data).toMatchObject({ user_id: member.userId, role: 'admin' });
    expect(events[1].data).toMatchObject({ id: key.id, revoked_reason: 'creator_removed' });
  });

  it('records member.role_changed with the previous role, and nothing when the role stays', async () => {
    const admin = await t.signup();
    const member = await join(admin);
    const events = await recorded(admin.workspaceId, async () => {
      for (let i = 0; i < 2; i++) {
        expect(
          (
            await t.request(`/api/v1/members/${member.userId}`, {
              method: 'PATCH',
              token: admin.token,
              json: { role: 'admin' },
            })
          ).status,
        ).toBe(200);
      }
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'member.role_changed',
      data: { user_id: member.userId, role: 'admin', previous_role: 'member' },
    });
  });

  it('records nothing when removing the owner is refused (409)', async () => {
    const admin = await t.signup();
    const other = await join(admin, 'admin');
    const events = await recorded(admin.workspaceId, async () => {
      expect(
        (await t.request(`/api/v1/members/${admin.userId}`, { method: 'DELETE', token: other.token })).status,
      ).toBe(409);
    });
    expect(events).toEqual([]);
  });
});

describe('an event and its change', () => {
  it('roll back together when the transaction fails after the event is written', async () => {
    const admin = await t.signup();
    const member = await join(admin, 'admin');
    await t.createKey(member.token);
    // Removal writes member.removed, then revokes the member's keys: make that later step fail.
    const sql = t.deps.db.sql;
    await sql.unsafe(`
      create function fail_events_test() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$;
      create trigger fail_events_test before update on api_keys for each row when (old.created_by = '${member.userId}') execute function fail_events_test();`);
    try {
      const events = await recorded(admin.workspaceId, async () => {
        expect(
          (await t.request(`/api/v1/members/${member.userId}`, { method: 'DELETE', token: admin.token })).status,
        ).toBe(500);
      });
      expect(events).toEqual([]);
      const [still] =
        await sql`select role from memberships where workspace_id = ${admin.workspaceId} and user_id = ${member.userId}`;
      expect(still.role).toBe('admin');
    } finally {
      await sql.unsafe('drop trigger fail_events_test on api_keys; drop function fail_events_test();');
    }
  });

  it('roll back together when the event cannot be written', async () => {
    const admin = await t.signup();
    const sql = t.deps.db.sql;
    await sql.unsafe(`
      create function fail_events_test() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$;
      create trigger fail_events_test before insert on events for each row when (new.workspace_id = '${admin.workspaceId}') execute function fail_events_test();`);
    try {
      expect(
        (await t.request('/api/v1/api-keys', { method: 'POST', token: admin.token, json: { name: 'never' } })).status,
      ).toBe(500);
    } finally {
      await sql.unsafe('drop trigger fail_events_test on events; drop function fail_events_test();');
    }
    expect(await sql`select id from api_keys where workspace_id = ${admin.workspaceId}`).toEqual([]);
  });
});
