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

describe('remove_member', () => {
  it('removes a member, whose token stops working on the next request', async () => {
    const admin = await t.signup();
    const member = await join(t, admin);
    expect((await t.request('/api/v1/users/me', { token: member.token })).status).toBe(200);
    const res = await t.request(`/api/v1/members/${member.userId}`, { method: 'DELETE', token: admin.token });
    expect(res.status).toBe(204);
    const after = await t.request('/api/v1/users/me', { token: member.token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('Bearer');
  });
});
