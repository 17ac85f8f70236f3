// Settings → Members in a real browser: inviting (the one-time token the panel shows is the one the
// API accepts), changing a role, removing a member; and what a member who is not an admin sees.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, uniqueEmail, type SignupResult, type TestApp } from '../helpers/app.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from './helpers/browser.ts';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let owner: SignupResult;
const password = 'correct horse battery';

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  browser = await sharedBrowser();
  owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

interface Member {
  email: string;
  userId: string;
  token: string;
}

async function accept(token: string, name: string): Promise<Member & { status: number }> {
  const res = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token, name, password } });
  const body = (await res.json()) as { user: { id: string; email: string }; login: { access_token: string } };
  return { status: res.status, email: body.user?.email, userId: body.user?.id, token: body.login?.access_token };
}

/** Invites and accepts through the API (the way the person would, with the token handed over). */
async function addMember(name: string): Promise<Member> {
  const res = await t.request('/api/v1/invitations', {
    method: 'POST',
    token: owner.token,
    json: { email: uniqueEmail('member'), role: 'member' },
  });
  expect(res.status).toBe(201);
  const invitation = (await res.json()) as { token: string };
  const member = await accept(invitation.token, name);
  expect(member.status).toBe(201);
  return member;
}

async function roleOf(userId: string): Promise<string | undefined> {
  const res = await t.request('/api/v1/members?limit=100', { token: owner.token });
  const body = (await res.json()) as { data: Array<{ user_id: string; role: string }> };
  return body.data.find((m) => m.user_id === userId)?.role;
}

describe('admin panel: members', () => {
  it('invites a member with a one-time token the API accepts, then changes their role', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/members');
    await signInThroughForm(page, owner.email, owner.password);
    const ownerRow = page.getByRole('row', { name: /Ada Lovelace/ });
    await ownerRow.getByText('Owner cannot be changed').waitFor();
    expect(await ownerRow.getByRole('combobox').count()).toBe(0);
    expect(await ownerRow.getByRole('button').count()).toBe(0);

    const email = uniqueEmail('grace');
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByLabel('Email').fill(email);
    expect(await dialog.getByLabel('Role').inputValue()).toBe('member');
    await dialog.getByRole('button', { name: 'Create invitation' }).click();
    const handover = page.getByRole('dialog', { name: 'Hand over the invitation' });
    await handover.getByText('You will not see this token again').waitFor();
    const token = await handover.getByLabel('Invitation token').inputValue();
    expect(token).toMatch(/^inv_/);
    await handover.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await handover.getByRole('button', { name: 'Done' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation created for ${email}` })
      .waitFor();

    const grace = await accept(token, 'Grace Hopper');
    expect(grace.status).toBe(201);
    expect((await accept(token, 'Grace Hopper')).status).toBe(404);

    await page.reload();
    const role = page.getByRole('combobox', { name: 'Role for Grace Hopper' });
    expect(await role.inputValue()).toBe('member');
    await role.selectOption('admin');
    await page.getByRole('status').filter({ hasText: 'Grace Hopper is now an admin.' }).waitFor();
    expect(await roleOf(grace.userId)).toBe('admin');
    await role.selectOption('member');
    await page.getByRole('status').filter({ hasText: 'Grace Hopper is now a member.' }).waitFor();
    expect(await roleOf(grace.userId)).toBe('member');

    await page.screenshot({ path: screenshotPath('members'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows a member that key and member management is admin-only, and the API refuses them with 403', async () => {
    const member = await addMember('Charles Babbage');
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await signInThroughForm(page, member.email, password);

    await page.getByRole('heading', { name: 'API key management is admin-only' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.locator('form, input, select').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('member-api-keys'), fullPage: true });

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Member management is admin-only' }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    expect(await page.locator('form, input, select').count()).toBe(0);

    const list = await t.request('/api/v1/api-keys', { token: member.token });
    expect(list.status).toBe(403);
    expect(((await list.json()) as { code: string }).code).toBe('forbidden');
    expect(
      (await t.request('/api/v1/api-keys', { method: 'POST', token: member.token, json: { name: 'sneaky' } })).status,
    ).toBe(403);
    expect(
      (
        await t.request('/api/v1/invitations', {
          method: 'POST',
          token: member.token,
          json: { email: uniqueEmail(), role: 'admin' },
        })
      ).status,
    ).toBe(403);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it("removes a member after confirmation, and the member's open session ends on its next request", async () => {
    const member = await addMember('Mary Somerville');
    const admin = await openPage(browser, server.url);
    const removed = await openPage(browser, server.url);
    await removed.page.goto('/admin');
    await signInThroughForm(removed.page, member.email, password);

    await admin.page.goto('/admin/members');
    await signInThroughForm(admin.page, owner.email, owner.password);
    await admin.page.getByRole('button', { name: 'Remove Mary Somerville' }).click();
    const confirm = admin.page.getByRole('dialog', { name: 'Remove member?' });
    await confirm.getByText('the API keys they created are revoked').waitFor();
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await admin.page.getByRole('status').filter({ hasText: 'Mary Somerville was removed' }).waitFor();
    expect(await admin.page.getByRole('row', { name: /Mary Somerville/ }).count()).toBe(0);
    expect((await t.request('/api/v1/users/me', { token: member.token })).status).toBe(401);

    await removed.page.getByRole('link', { name: 'Members' }).click();
    await removed.page.getByText('Your session expired; sign in again.').waitFor();
    await removed.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(unexpectedProblems(admin.problems)).toEqual([]);
    expect(unexpectedProblems(removed.problems, [401])).toEqual([]);
    await admin.context.close();
    await removed.context.close();
  });

  it('lets a person who already has an account join by signing in, never by guessing on the join form', async () => {
    const existing = await t.signup({ name: 'Sophie Germain', workspace_name: 'Elasticity' });
    const res = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: existing.email, role: 'member' },
    });
    const invitation = (await res.json()) as { token: string };
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/join');
    await page.getByLabel('Invitation token').fill(invitation.token);
    await page.getByLabel('Your name').fill('Sophie Germain');
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Join workspace' }).click();
    await page.getByText('An account with this email already exists').waitFor();
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill(existing.password);
    await page.getByRole('button', { name: 'Sign in and join' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).waitFor();
    await page.getByText('Analytical Engines').first().waitFor();
    expect(await roleOf(existing.userId)).toBe('member');
    expect(unexpectedProblems(problems, [409])).toEqual([]);
    await context.close();
  });

  it('lets an invited person join from the join page with the token', async () => {
    const res = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: uniqueEmail('join'), role: 'member' },
    });
    const invitation = (await res.json()) as { token: string };
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Join a workspace' }).click();
    await page.getByLabel('Invitation token').fill(invitation.token);
    await page.getByLabel('Your name').fill('Emmy Noether');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Join workspace' }).click();
    await page.getByRole('heading', { name: 'API key management is admin-only' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
    expect(await page.getByText('Emmy Noether').count()).toBeGreaterThan(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
