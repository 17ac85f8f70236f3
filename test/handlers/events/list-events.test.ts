import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminCommands } from '../../../scripts/admin/commands.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let now = new Date('2026-11-21T10:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t?.close());

const tick = () => {
  now = new Date(now.getTime() + 1000);
  return now;
};

async function listEvents(token: string, query = '') {
  const res = await t.request(`/api/v1/events${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as { data: any[]; has_more: boolean; next_cursor: string | null };
}

/** A workspace whose history is: workspace.created, then three keys created a second apart, the first revoked. */
async function workspaceWithHistory(): Promise<{ admin: SignupResult; keys: { id: string }[] }> {
  tick();
  const admin = await t.signup();
  const keys = [];
  for (const name of ['one', 'two', 'three']) {
    tick();
    keys.push(await t.createKey(admin.token, name));
  }
  tick();
  expect((await t.request(`/api/v1/api-keys/${keys[0].id}`, { method: 'DELETE', token: admin.token })).status).toBe(
    200,
  );
  return { admin, keys };
}

describe('list_events', () => {
  it('lists the workspace events oldest first, in the contract shape', async () => {
    const { admin, keys } = await workspaceWithHistory();
    const page = await listEvents(admin.token);
    expect(page.data.map((e) => e.type)).toEqual([
      'workspace.created',
      'api_key.created',
      'api_key.created',
      'api_key.created',
      'api_key.revoked',
    ]);
    expect(page.data[1]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      type: 'api_key.created',
      created_at: expect.any(String),
      actor: { type: 'user', id: admin.userId },
      data: expect.objectContaining({ id: keys[0].id, name: 'one' }),
    });
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('filters by exact types and by resource.*, comma-separated', async () => {
    const { admin } = await workspaceWithHistory();
    expect((await listEvents(admin.token, '?type=api_key.revoked')).data.map((e) => e.type)).toEqual([
      'api_key.revoked',
    ]);
    expect((await listEvents(admin.token, '?type=api_key.*')).data).toHaveLength(4);
    expect((await listEvents(admin.token, '?type=workspace.created,api_key.revoked')).data.map((e) => e.type)).toEqual([
      'workspace.created',
      'api_key.revoked',
    ]);
    expect((await listEvents(admin.token, '?type=member.*')).data).toEqual([]);
  });

  it('refuses a malformed type filter (400)', async () => {
    const { admin } = await workspaceWithHistory();
    const res = await t.request('/api/v1/events?type=api_key', { token: admin.token });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('validation_failed');
  });

  it('filters by creation time, both bounds exclusive', async () => {
    const { admin } = await workspaceWithHistory();
    const all = (await listEvents(admin.token)).data;
    const query = `?created_after=${all[1].created_at}&created_before=${all[4].created_at}`;
    expect((await listEvents(admin.token, query)).data.map((e) => e.id)).toEqual([all[2].id, all[3].id]);
  });

  it('pages with cursors, each event once, and refuses a cursor it did not issue', async () => {
    const { admin } = await workspaceWithHistory();
    const seen = [];
    let cursor = '';
    for (;;) {
      const page = await listEvents(admin.token, `?limit=2${cursor}`);
      seen.push(...page.data.map((e) => e.id));
      if (!page.next_cursor) break;
      cursor = `&cursor=${page.next_cursor}`;
    }
    expect(seen).toEqual((await listEvents(admin.token)).data.map((e) => e.id));
    const first = await listEvents(admin.token, '?limit=2');
    const res = await t.request(`/api/v1/events?cursor=${first.next_cursor}x`, { token: admin.token });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('invalid_cursor');
  });

  it("never shows another workspace's events, nor accepts its cursor", async () => {
    const mine = await workspaceWithHistory();
    const theirs = await workspaceWithHistory();
    const ids = new Set((await listEvents(theirs.admin.token)).data.map((e) => e.id));
    expect((await listEvents(mine.admin.token)).data.some((e) => ids.has(e.id))).toBe(false);
    const theirCursor = (await listEvents(theirs.admin.token, '?limit=1')).next_cursor;
    expect((await t.request(`/api/v1/events?cursor=${theirCursor}`, { token: mine.admin.token })).status).toBe(400);
  });

  it('refuses members (403), since events describe keys and members', async () => {
    const { admin } = await workspaceWithHistory();
    const memberKey = await createAdminCommands(t.deps).mintKey({
      workspaceId: admin.workspaceId,
      name: 'reader',
      role: 'member',
    });
    const refused = await t.request('/api/v1/events', { token: memberKey.key });
    expect(refused.status).toBe(403);
    expect((await t.request('/api/v1/events')).status).toBe(401);
  });
});
