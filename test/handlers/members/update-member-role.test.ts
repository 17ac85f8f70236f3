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

describe('update_member_role', () => {
  it('changes a role, and the member’s next request carries the new role', async () => {
    const admin = await t.signup();
    const member = await join(t, admin, 'member');
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
