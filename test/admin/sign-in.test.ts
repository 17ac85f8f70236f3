// Signing in and out of the panel, and what happens when the session ends underneath it: a wrong
// password shows the API's error, an expired token sends the user back to sign-in with a message.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/deps.ts';
import { createTestApp, listen, type SignupResult, type TestApp } from '../helpers/app.ts';
import { launchBrowser, openPage, screenshotPath, signInThroughForm, unexpectedProblems } from './helpers/browser.ts';

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
  browser = await launchBrowser();
  owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
});

afterAll(async () => {
  await browser?.close();
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

  it('sends an expired session back to sign-in with a message, and signing in again works', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/api-keys');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('No API keys yet').waitFor();

    clock.offsetMs += 901_000;
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
});
