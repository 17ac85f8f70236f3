// Settings → Workspace in a real browser against the real app: the postal address is saved (only what changed
// is sent) and survives a reload, the API's validation error appears next to its field, human approval is
// switched off and on, and a member who is not an admin reads the settings without a way to change them.
import type { Browser, Page, Request } from 'playwright-core';
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
const password = 'correct horse battery staple';

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

async function settings(): Promise<{ postal_address: string | null; require_human_approval: boolean }> {
  const res = await t.request('/api/v1/workspace/settings', { token: owner.token });
  expect(res.status).toBe(200);
  return (await res.json()) as { postal_address: string | null; require_human_approval: boolean };
}

/** The bodies of the settings PATCHes the page sends. */
function patches(page: Page): unknown[] {
  const sent: unknown[] = [];
  page.on('request', (req: Request) => {
    if (req.method() === 'PATCH' && req.url().endsWith('/api/v1/workspace/settings')) sent.push(req.postDataJSON());
  });
  return sent;
}

const address = 'Analytical Engines Ltd\n12 Marylebone Road\nLondon NW1 5LR\nUnited Kingdom';

describe('admin panel: workspace settings', () => {
  it('saves the postal address (only that field is sent), which a reload and get_workspace_settings show', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    const sent = patches(page);
    await page.goto('/admin/workspace');
    await signInThroughForm(page, owner.email, owner.password);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Workspace');
    await page.getByText('No postal address yet').waitFor();
    await page.getByText('CAN-SPAM', { exact: false }).waitFor();
    const save = page.getByRole('button', { name: 'Save changes' });
    expect(await save.isDisabled()).toBe(true);

    await page.getByLabel('Sender’s postal address').fill(address);
    await save.click();
    await page.getByRole('status').filter({ hasText: 'Saved: postal address' }).waitFor();
    expect(sent).toEqual([{ postal_address: address }]);
    expect((await settings()).postal_address).toBe(address);
    expect(await save.isDisabled()).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Postal address' }).or(page.getByText('Sending caps')).first().waitFor();
    expect(await page.getByLabel('Sender’s postal address').inputValue()).toBe(address);
    expect(await page.getByText('No postal address yet').count()).toBe(0);
    await page.getByText(/\d+ messages/).waitFor();
    await page.screenshot({ path: screenshotPath('workspace'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the API’s validation error next to the postal address field', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/workspace');
    await signInThroughForm(page, owner.email, owner.password);
    const field = page.getByLabel('Sender’s postal address');
    await field.fill('x'.repeat(301));
    await page.getByText('301 / 300 characters').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const error = page.locator('.field-error[data-error-for="postal_address"]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/300/);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el.getAttribute('aria-describedby'))).toContain(await error.getAttribute('id'));
    await page.getByRole('alert').filter({ hasText: 'see the message next to the field' }).waitFor();
    expect((await settings()).postal_address).toBe(address);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('workspace-validation'), fullPage: true });
    expect(unexpectedProblems(problems, [400, 422])).toEqual([]);
    await context.close();
  });

  it('turns human approval off and on again', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    const sent = patches(page);
    await page.goto('/admin/workspace');
    await signInThroughForm(page, owner.email, owner.password);
    const toggle = page.getByRole('switch', { name: /approval before they send/ });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'human approval off' }).waitFor();
    expect((await settings()).require_human_approval).toBe(false);

    await toggle.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'human approval on' }).waitFor();
    expect((await settings()).require_human_approval).toBe(true);
    expect(sent).toEqual([{ require_human_approval: false }, { require_human_approval: true }]);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows a member who is not an admin the settings read-only', async () => {
    const invited = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: uniqueEmail('member'), role: 'member' },
    });
    const { token } = (await invited.json()) as { token: string };
    const accepted = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token, name: 'Grace Hopper', password },
    });
    expect(accepted.status).toBe(201);
    const member = (await accepted.json()) as { user: { email: string } };

    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/workspace');
    await signInThroughForm(page, member.user.email, password);
    await page.getByText('Read-only for members').waitFor();
    const field = page.getByLabel('Sender’s postal address');
    expect(await field.inputValue()).toBe(address);
    expect(await field.isDisabled()).toBe(true);
    expect(await page.getByRole('switch').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows an error with a retry when the settings cannot be loaded', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/workspace');
    await page.route('**/api/v1/workspace/settings', (route) => route.abort('connectionrefused'));
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('Could not load this page').waitFor();
    await page.unroute('**/api/v1/workspace/settings');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByLabel('Sender’s postal address').waitFor();
    expect(unexpectedProblems(problems).filter((p) => !p.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
    await context.close();
  });
});
