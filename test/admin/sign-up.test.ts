// Creating an account in the panel: from the sign-in page to a new workspace, signed in on Settings → API
// keys, where the first key for an agent is minted; refusals show the API's words on the field they name.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, uniqueEmail, type TestApp } from '../helpers/app.ts';
import { sharedBrowser, releaseBrowser, openPage, screenshotPath, unexpectedProblems } from './helpers/browser.ts';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  browser = await sharedBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

describe('admin panel: create an account', () => {
  it('creates the account and workspace, signs in on API keys, and mints a key that works', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Create an account' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/signup');
    await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
    expect(await page.title()).toBe('Create an account · Agent Platform');
    const email = uniqueEmail('panel');
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Workspace name').fill('Compilers Inc');
    await page.screenshot({ path: screenshotPath('sign-up-form') });
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
    await page.getByText('Compilers Inc').first().waitFor();
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('my agent');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByRole('dialog', { name: 'Save your new API key' }).getByLabel('API key').inputValue();
    const me = await t.request('/api/v1/users/me', { token: key });
    expect(await me.json()).toMatchObject({
      user: { email, name: 'Grace Hopper' },
      workspace: { name: 'Compilers Inc' },
      credential: { type: 'api_key' },
    });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the refusal for an email that has an account, marks the field, and keeps what was typed', async () => {
    const existing = await t.signup();
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/signup');
    await page.getByLabel('Your name').fill('Someone Else');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill('another long password');
    await page.getByLabel('Workspace name').fill('Second Try');
    await page.getByRole('button', { name: 'Create account' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('An account with this email already exists; log in instead.');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Workspace name').inputValue()).toBe('Second Try');
    expect(await page.getByRole('button', { name: 'Create account' }).isEnabled()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.screenshot({ path: screenshotPath('sign-up-email-taken') });
    expect(unexpectedProblems(problems, [409])).toEqual([]);
    await context.close();
  });

  it('refuses a password shorter than 8 characters before sending anything', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/users/signup')) sent.push(request.url());
    });
    await page.goto('/admin/signup');
    await page.getByLabel('Your name').fill('Short Password');
    await page.getByLabel('Email').fill(uniqueEmail('short'));
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Workspace name').fill('Nope');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByLabel('Password').evaluate((el) => (el as HTMLInputElement).validity.tooShort)).toBe(true);
    expect(await page.getByLabel('Password').evaluate((el) => (el as HTMLInputElement).validationMessage)).not.toBe('');
    expect(sent).toEqual([]);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the API refusal of a password when the browser lets it through', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/signup');
    // A browser without constraint validation (or a changed policy) leaves the check to the API.
    await page.locator('form').evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await page.getByLabel('Your name').fill('Short Password');
    await page.getByLabel('Email').fill(uniqueEmail('short'));
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Workspace name').fill('Nope');
    await page.getByRole('button', { name: 'Create account' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('password: Too small: expected string to have >=8 characters');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(unexpectedProblems(problems, [400])).toEqual([]);
    await context.close();
  });
});
