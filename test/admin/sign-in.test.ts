// Signing in and out of the panel, and what happens when the session ends underneath it: a wrong
// password shows the API's error, a session past its lifetime sends the user back to sign-in with a message.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import { createTestApp, listen, uniqueEmail, type SignupResult, type TestApp } from '../helpers/app.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from './helpers/browser.ts';

/** A clock the test moves forward, so a token expires without waiting. */
const clock: Clock & { offsetMs: number } = {
  offsetMs: 0,
  now: () => new Date(Date.now() + clock.offsetMs),
};

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let owner: SignupResult;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { JWT_TTL_SECONDS: '900' } });
  server = await listen(t.app);
  browser = await sharedBrowser();
  owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

describe('admin panel: sign-in', () => {
  it('shows an error for a wrong password and stays on sign-in', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The email or password is incorrect.');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.getByRole('navigation', { name: 'Settings' }).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.screenshot({ path: screenshotPath('sign-in-error') });
    expect(unexpectedProblems(problems, [401])).toEqual([]);
    await context.close();
  });

  it('keeps the session across a reload, and signing out ends it', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/members');
    await signInThroughForm(page, owner.email, owner.password);
    expect(new URL(page.url()).pathname).toBe('/admin/members');
    await page.reload();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('sends a session past its lifetime back to sign-in with a message, and signing in again works', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/api-keys');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('No API keys yet').waitFor();

    // Past the JWT's 15 minutes the panel session mints another (test/admin/session.test.ts); past its 14 days, not.
    clock.offsetMs += 15 * 86_400_000;
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByText('Your session expired; sign in again.').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.getByLabel('Email').inputValue()).toBe(owner.email);
    await page.screenshot({ path: screenshotPath('session-expired') });

    await signInThroughForm(page, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(unexpectedProblems(problems, [401])).toEqual([]);
    await context.close();
  });

  it('lets a member removed from their only workspace sign in and join again with a new invitation', async () => {
    // Its own owner: the test before moved the clock past the first owner's token.
    const hub = await t.signup({ name: 'Alan Turing', workspace_name: 'Bletchley Park' });
    const invite = async (email: string) =>
      (
        (await (
          await t.request('/api/v1/invitations', { method: 'POST', token: hub.token, json: { email, role: 'member' } })
        ).json()) as { token: string }
      ).token;
    const email = uniqueEmail('returning');
    const password = 'returning password';
    const accepted = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: await invite(email), name: 'Grace Hopper', password },
    });
    const userId = ((await accepted.json()) as { user: { id: string } }).user.id;
    expect((await t.request(`/api/v1/members/${userId}`, { method: 'DELETE', token: hub.token })).status).toBe(204);

    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Join a workspace', level: 1 }).waitFor();
    expect(await page.getByText('Your account does not belong to any workspace now.').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('no-workspace') });

    await page.getByLabel('Invitation token').fill(await invite(email));
    await page.getByRole('button', { name: 'Join workspace' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).waitFor();
    expect(await page.locator('.workspace-name').textContent()).toBe('Bletchley Park');
    expect(unexpectedProblems(problems, [403])).toEqual([]);
    await context.close();
  });
});
