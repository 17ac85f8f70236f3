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

describe('changing members', () => {
  it('refuses to change or remove the owner with 409', async () => {
    const admin = await t.signup();
    const other = await join(t, admin, 'admin');
    expect((await t.request(`/api/v1/members/${admin.userId}`, { method: 'DELETE', token: other.token })).status).toBe(
      409,
    );
    expect(
      (
        await t.request(`/api/v1/members/${admin.userId}`, {
          method: 'PATCH',
          token: other.token,
          json: { role: 'member' },
        })
      ).status,
    ).toBe(409);
  });

  it('lets only admins change members (403 for a member)', async () => {
    const admin = await t.signup();
    const member = await join(t, admin);
    const target = await join(t, admin);
    expect(
      (await t.request(`/api/v1/members/${target.userId}`, { method: 'DELETE', token: member.token })).status,
    ).toBe(403);
    expect(
      (
        await t.request('/api/v1/invitations', {
          method: 'POST',
          token: member.token,
          json: { email: uniqueEmail(), role: 'member' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('workspace isolation of members', () => {
  it('answers 404 for a member of another workspace, exactly as for a missing id', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const missing = await t.request('/api/v1/members/usr_00000000000000000000000000', {
      method: 'DELETE',
      token: a.token,
    });
    const foreign = await t.request(`/api/v1/members/${b.userId}`, { method: 'DELETE', token: a.token });
    const foreignPatch = await t.request(`/api/v1/members/${b.userId}`, {
      method: 'PATCH',
      token: a.token,
      json: { role: 'member' },
    });
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreignPatch.status).toBe(404);
    const strip = (x: any) => ({ ...x, request_id: undefined, instance: undefined });
    expect(strip(await foreign.json())).toEqual(strip(await missing.json()));
    const list = await (await t.request('/api/v1/members', { token: a.token })).json();
    expect(list.data.map((m: any) => m.user_id)).toEqual([a.userId]);
  });
});
