// Settings → API keys in a real browser against the real app on a real port: a key is created,
// read once, used against the API, revoked in the panel, and rejected on the very next request.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, uniqueEmail, type SignupResult, type TestApp } from '../helpers/app.ts';
import {
  isFocused,
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

/** Everything the page holds: markup, form values and both storages. */
function pageMemory(page: Page): Promise<string> {
  return page.evaluate(() =>
    [
      document.documentElement.outerHTML,
      ...Array.from(document.querySelectorAll('input'), (i) => i.value),
      JSON.stringify({ ...sessionStorage }),
      JSON.stringify({ ...localStorage }),
    ].join('\n'),
  );
}

function callApi(key: string): Promise<Response> {
  return fetch(`${server.url}/api/v1/users/me`, { headers: { Authorization: `Bearer ${key}` } });
}

describe('admin panel: API keys', () => {
  it('creates a key shown once, which works until it is revoked in the panel', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await signInThroughForm(page, owner.email, owner.password);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');
    await page.getByText('No API keys yet').waitFor();
    await page.screenshot({ path: screenshotPath('api-keys-empty') });

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('CI runner');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'Save your new API key' });
    await reveal.getByText('You will not see this key again').waitFor();
    const key = await reveal.getByLabel('API key').inputValue();
    expect(key).toMatch(/^svc_[a-z0-9]{8}_[A-Za-z0-9]+$/);
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByText('Copied to clipboard').waitFor();
    await page.screenshot({ path: screenshotPath('api-keys-created') });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    // The list behind the dialog already has the new key.
    const row = page.getByRole('row', { name: /CI runner/ });
    await row.waitFor();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await row.getByText('Active').waitFor();
    await row.getByText('Ada Lovelace').waitFor();
    await row.getByText(`svc_${key.split('_')[1]}_…`).waitFor();
    expect(await pageMemory(page)).not.toContain(key.split('_')[2]);

    await page.reload();
    await page.getByRole('row', { name: /CI runner/ }).waitFor();
    expect(await pageMemory(page)).not.toContain(key.split('_')[2]);

    expect((await callApi(key)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke CI runner' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
    await expect.poll(() => isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page
      .getByRole('row', { name: /CI runner/ })
      .getByText('Active')
      .waitFor();
    expect((await callApi(key)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke CI runner' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('row', { name: /CI runner/ })
      .getByText('Revoked')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Revoke CI runner' }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();

    const rejected = await callApi(key);
    expect(rejected.status).toBe(401);
    expect(rejected.headers.get('www-authenticate')).toContain('Bearer');

    // A few more keys, so the screenshot shows the list as a team would see it.
    await t.createKey(owner.token, 'Zapier sync');
    await t.createKey(owner.token, 'Data warehouse export');
    await page.reload();
    await page.getByRole('row', { name: /Data warehouse export/ }).waitFor();
    await page.screenshot({ path: screenshotPath('api-keys'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('is usable from the keyboard: the dialog takes focus, Enter submits, Escape closes and focus returns', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/api-keys');
    await signInThroughForm(page, owner.email, owner.password);
    // After sign-in, focus is on the page title; the next Tab reaches the page's action.
    await expect.poll(() => isFocused(page.getByRole('heading', { name: 'API keys', level: 1 }))).toBe(true);
    const create = page.getByRole('button', { name: 'Create API key' });
    await page.keyboard.press('Tab');
    await expect.poll(() => isFocused(create)).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => isFocused(page.getByRole('dialog', { name: 'Create API key' }).getByLabel('Name')))
      .toBe(true);
    await page.keyboard.type('Keyboard key');
    await page.keyboard.press('Enter');
    const secret = page.getByRole('dialog', { name: 'Save your new API key' }).getByLabel('API key');
    await expect.poll(() => isFocused(secret)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(create)).toBe(true);
    await page.getByRole('row', { name: /Keyboard key/ }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the role each key acts with, and that a departed member’s keys were revoked with them', async () => {
    const inv = await (
      await t.request('/api/v1/invitations', {
        method: 'POST',
        token: owner.token,
        json: { email: uniqueEmail('leaver'), role: 'admin' },
      })
    ).json();
    const joined = await (
      await t.request('/api/v1/invitations/accept', {
        method: 'POST',
        json: { token: inv.token, name: 'Charles Babbage', password: 'leaver password' },
      })
    ).json();
    await t.createKey(joined.login.access_token, 'Babbage export');
    await t.createKey(owner.token, 'Owner sync');
    expect(
      (await t.request(`/api/v1/members/${joined.user.id}`, { method: 'DELETE', token: owner.token })).status,
    ).toBe(204);

    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/api-keys');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('When a member leaves the workspace, the keys they created are revoked').waitFor();
    const departed = page.getByRole('row', { name: /Babbage export/ });
    await departed.getByText('Revoked').waitFor();
    await departed.getByText('Creator left').waitFor();
    await departed.getByText('Former member').waitFor();
    const active = page.getByRole('row', { name: /Owner sync/ });
    await active.getByText('Acts as admin').waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the API error inside the dialog when the name is refused', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/api-keys');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    // Whitespace passes the browser's `required` check; the panel trims it and the API refuses it.
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(unexpectedProblems(problems, [400])).toEqual([]);
    await context.close();
  });
});
