import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { invite, join } from './member-fixtures.ts';

let t: TestApp;
let now = new Date('2026-11-21T10:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t?.close());

describe('list_members', () => {
  it('lists members oldest first with cursor pagination', async () => {
    const admin = await t.signup();
    for (let i = 0; i < 3; i++) {
      now = new Date(now.getTime() + 1000);
      await join(t, admin);
    }
    const first = await (await t.request('/api/v1/members?limit=2', { token: admin.token })).json();
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({ user_id: admin.userId, role: 'owner' });
    expect(first.has_more).toBe(true);
    const second = await (
      await t.request(`/api/v1/members?limit=2&cursor=${first.next_cursor}`, { token: admin.token })
    ).json();
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
});
