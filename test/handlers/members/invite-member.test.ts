import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let now = new Date('2026-11-21T10:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t?.close());

async function invite(admin: SignupResult, role: 'admin' | 'member' = 'member', email = uniqueEmail('invitee')) {
  const res = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role } });
  expect(res.status).toBe(201);
  return { email, ...((await res.json()) as { id: string; token: string; expires_at: string; role: string }) };
}

describe('invitations', () => {
  it('returns a one-time token valid 72 hours that joins the workspace with the invited role', async () => {
    const admin = await t.signup();
    const inv = await invite(admin, 'admin');
    expect(new Date(inv.expires_at).getTime() - now.getTime()).toBe(72 * 3600 * 1000);
    expect(inv.id).toMatch(/^inv_/);
    const res = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: inv.token, name: 'Grace', password: 'grace password' },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      role: 'admin',
      workspace: { id: admin.workspaceId },
      user: { email: inv.email, name: 'Grace' },
    });
    const again = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: inv.token, name: 'Grace', password: 'grace password' },
    });
    expect(again.status).toBe(404);
  });

  it('refuses an invitation older than 72 hours', async () => {
    const admin = await t.signup();
    const inv = await invite(admin);
    now = new Date(now.getTime() + 72 * 3600 * 1000 + 1000);
    const res = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: inv.token, name: 'Late', password: 'late password' },
    });
    expect(res.status).toBe(404);
  });

  it('refuses to invite someone who is already a member with 409', async () => {
    const admin = await t.signup();
    const res = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: admin.token,
      json: { email: admin.email, role: 'member' },
    });
    expect(res.status).toBe(409);
  });

  it('stores only a hash of the invitation token', async () => {
    const admin = await t.signup();
    const inv = await invite(admin);
    const rows = await t.deps.db.sql`select token_hash from invitations where id = ${inv.id}`;
    expect(rows[0].token_hash).not.toContain(inv.token);
    expect(JSON.stringify(rows)).not.toContain(inv.token);
  });
});
