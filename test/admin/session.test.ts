// Staying signed in: the panel session (an httpOnly cookie on /admin) signs in a new tab and outlives the
// 15-minute JWT; signing out or changing the password ends it everywhere, and its cookie is refused afterwards.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import { createTestApp, listen, type SignupResult, type TestApp } from '../helpers/app.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from './helpers/browser.ts';

/** A clock the test moves forward, so a JWT expires without waiting. */
const clock: Clock & { offsetMs: number } = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { JWT_TTL_SECONDS: '900' } });
  server = await listen(t.app);
  browser = await sharedBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

/** A second tab of the same browser: same cookies and localStorage, its own (empty) sessionStorage. */
async function newTab(context: BrowserContext) {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

async function signedIn(user: SignupResult) {
  const opened = await openPage(browser, server.url);
  await opened.page.goto('/admin/api-keys');
  await signInThroughForm(opened.page, user.email, user.password);
  await opened.page.getByText('No API keys yet').waitFor();
  return opened;
}

function replay(cookie: { name: string; value: string }): Promise<Response> {
  return fetch(`${server.url}/admin/session/refresh`, {
    method: 'POST',
    headers: { Origin: server.url, Cookie: `${cookie.name}=${cookie.value}` },
  });
}

describe('admin panel: staying signed in', () => {
  it('signs in a new tab of the same browser without asking, through a cookie scripts cannot read', async () => {
    const user = await t.signup({ name: 'Emmy Noether', workspace_name: 'Invariants' });
    const { page, context, problems } = await signedIn(user);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'admin_session', path: '/admin', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    const tab = await newTab(context);
    await tab.page.goto('/admin/members');
    await tab.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(await tab.page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await tab.page.evaluate(() => Object.values(sessionStorage)[0])).toMatch(/^ey/);
    await tab.page.screenshot({ path: screenshotPath('session-new-tab'), fullPage: true });
    expect(unexpectedProblems([...problems, ...tab.problems])).toEqual([]);
    await context.close();
  });

  it("outlives the JWT's expiry: the next request gets a new token and the page loads", async () => {
    const user = await t.signup({ name: 'Sofia Kovalevskaya', workspace_name: 'Tops' });
    const { page, context, problems } = await signedIn(user);
    const before = await page.evaluate(() => Object.values(sessionStorage)[0]);
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/admin/session/refresh') refreshes.push(r.method());
    });

    clock.offsetMs += 901_000;
    expect((await t.request('/api/v1/users/me', { token: before })).status).toBe(401);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    expect(await page.getByText('Your session expired; sign in again.').count()).toBe(0);
    expect(refreshes).toEqual(['POST']);
    const after = await page.evaluate(() => Object.values(sessionStorage)[0]);
    expect(after).not.toBe(before);
    expect((await t.request('/api/v1/users/me', { token: after })).status).toBe(200);
    expect(unexpectedProblems(problems, [401])).toEqual([]);
    await context.close();
  });

  it('signing out ends the session in every tab, and its cookie is refused when replayed', async () => {
    const user = await t.signup({ name: 'Mary Cartwright', workspace_name: 'Chaos' });
    const { page, context, problems } = await signedIn(user);
    const [cookie] = await context.cookies();
    const other = await newTab(context);
    await other.page.goto('/admin/members');
    await other.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await other.page.getByText('Your session ended in another tab; sign in again.').waitFor();
    await expect.poll(async () => (await context.cookies()).length).toBe(0);

    const fresh = await newTab(context);
    await fresh.page.goto('/admin/members');
    await fresh.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await replay(cookie)).status).toBe(401);
    expect(unexpectedProblems([...problems, ...other.problems, ...fresh.problems])).toEqual([]);
    await context.close();
  });

  it('changing the password ends the panel session: a new tab asks to sign in', async () => {
    const user = await t.signup({ name: 'Olga Taussky', workspace_name: 'Matrices' });
    const { context, problems } = await signedIn(user);
    const [cookie] = await context.cookies();
    const changed = await t.request('/api/v1/users/me/password', {
      method: 'POST',
      token: user.token,
      json: { current_password: user.password, new_password: 'an entirely new password' },
    });
    expect(changed.status).toBe(204);

    const tab = await newTab(context);
    await tab.page.goto('/admin/members');
    await tab.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await replay(cookie)).status).toBe(401);
    await signInThroughForm(tab.page, user.email, 'an entirely new password');
    await tab.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(unexpectedProblems([...problems, ...tab.problems], [401])).toEqual([]);
    await context.close();
  });

  it('changing the password in the panel keeps this browser signed in and signs out the others', async () => {
    const user = await t.signup({ name: 'Ada Yonath', workspace_name: 'Ribosomes' });
    const here = await signedIn(user);
    const elsewhere = await signedIn(user);

    await here.page.getByRole('button', { name: 'Change password' }).click();
    const dialog = here.page.getByRole('dialog', { name: 'Change your password' });
    await dialog.getByLabel('Current password').fill('not my password');
    await dialog.getByLabel('New password').fill('a panel-made password');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText('The current password is incorrect.').waitFor();
    expect(await dialog.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Current password').fill(user.password);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const done = here.page.getByRole('dialog', { name: 'Password changed' });
    await done.getByText('Other browsers were signed out; this one stays signed in.').waitFor();
    await here.page.screenshot({ path: screenshotPath('session-password-changed'), fullPage: true });
    await done.getByRole('button', { name: 'Done' }).click();

    const tab = await newTab(here.context);
    await tab.page.goto('/admin/members');
    await tab.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const other = await newTab(elsewhere.context);
    await other.page.goto('/admin/members');
    await other.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(unexpectedProblems([...here.problems, ...tab.problems], [422])).toEqual([]);
    expect(unexpectedProblems([...elsewhere.problems, ...other.problems], [401])).toEqual([]);
    await here.context.close();
    await elsewhere.context.close();
  });
});
