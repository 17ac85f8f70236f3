// Settings → Connectors in a real browser against the real app on a port known before it starts (the
// connector flow calls the service's own sandbox provider and builds its links from PUBLIC_BASE_URL):
// Gmail is connected through the sandbox consent page in a new tab, a test email lands in the sandbox
// mailbox, a failed connector is reconnected, and a connector is disconnected.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, type SignupResult, type TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { playHuman, type Connector } from '../handlers/connectors/human.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  browser = await sharedBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

/** A new workspace, so each test sees only its own connectors. */
function newOwner(): Promise<SignupResult> {
  return t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
}

async function startConnector(
  token: string,
  body: Record<string, unknown> = { provider: 'gmail' },
): Promise<Connector> {
  const res = await t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as Connector;
}

/** A connector the human allowed, over plain HTTP. */
async function connected(token: string, account: string): Promise<Connector> {
  const connector = await startConnector(token);
  expect((await playHuman(connector.authorization_url as string, { email: account })).status).toBe(200);
  return connector;
}

async function connectorStatus(token: string, id: string): Promise<string> {
  return ((await (await t.request(`/api/v1/connectors/${id}`, { token })).json()) as Connector).status;
}

async function openConnectors(user: { email: string; password: string }): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto('/admin/connectors');
  await signInThroughForm(admin.page, user.email, user.password);
  await admin.page.getByRole('heading', { name: 'Connectors', level: 1 }).waitFor();
  return admin;
}

const row = (page: Page, id: string) => page.locator(`tr[data-connector-id="${id}"]`);

describe('admin panel: connectors', () => {
  it('connects Gmail through the consent page in a new tab and shows it connected, in sandbox, without a reload', async () => {
    const owner = await newOwner();
    const { page, context, problems } = await openConnectors(owner);
    await page.getByText('No connectors yet').waitFor();
    expect(await page.getByRole('link', { name: 'Connectors' }).getAttribute('aria-current')).toBe('page');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const popup = page.waitForEvent('popup');
    const followed = page.waitForRequest((r) =>
      /\/api\/v1\/connectors\/conn_[0-9a-z]+\?wait_seconds=25$/.test(r.url()),
    );
    await page.getByRole('button', { name: 'Connect Gmail' }).click();
    const consent = await popup;
    await consent.waitForLoadState();
    expect(new URL(consent.url()).pathname).toBe('/sandbox/google/o/oauth2/v2/auth');
    expect(await consent.evaluate(() => window.opener)).toBeNull();

    const id = new URL((await followed).url()).pathname.split('/').pop() as string;
    const pending = row(page, id);
    await pending.getByText('Waiting for consent').waitFor();
    await pending.getByText('Sandbox', { exact: true }).waitFor();
    await page.getByText('No real Google account is involved').waitFor();
    await page.screenshot({ path: screenshotPath('connectors-pending') });

    const account = consent.getByLabel('Sandbox account');
    expect(await account.inputValue()).toBe(owner.email);
    await account.fill('ada@sandbox.example');
    await consent.getByRole('button', { name: 'Allow' }).click();
    await consent.getByRole('heading', { name: 'Connected' }).waitFor();

    const done = row(page, id);
    await done.getByText('Connected', { exact: true }).waitFor();
    await done.getByText('ada@sandbox.example').waitFor();
    await done.getByText('Sandbox', { exact: true }).waitFor();
    await done.getByText('No real account; mail stays in the sandbox mailbox.').waitFor();
    await page.getByRole('status').filter({ hasText: 'connected as ada@sandbox.example' }).waitFor();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    expect(await connectorStatus(owner.token, id)).toBe('connected');
    await page.screenshot({ path: screenshotPath('connectors'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('sends a test email from the dialog, and the message shows in the sandbox mailbox as text', async () => {
    const owner = await newOwner();
    const connector = await connected(owner.token, 'grace@sandbox.example');
    const { page, context, problems } = await openConnectors(owner);
    const mailbox = page.getByRole('region', { name: 'Sandbox mailbox' });
    await mailbox.getByText('No sandbox mail yet').waitFor();

    await row(page, connector.id).getByRole('button', { name: 'Send test email from grace@sandbox.example' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test email' });
    const recipient = dialog.getByLabel('Recipient');
    expect(await recipient.inputValue()).toBe(owner.email);
    await recipient.fill('hopper@example.com');
    await dialog.getByRole('button', { name: 'Send test email' }).click();
    const sent = page.getByRole('dialog', { name: 'Test email sent' });
    await sent.getByText('Sent from grace@sandbox.example to hopper@example.com.').waitFor();
    await sent.getByText('find it in the sandbox mailbox').waitFor();
    await page.screenshot({ path: screenshotPath('connectors-test-email-sent') });
    await sent.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const message = mailbox.getByRole('listitem').filter({ hasText: 'hopper@example.com' });
    await message.getByRole('heading', { name: /\[sandbox\]/ }).waitFor();
    await message.getByText('grace@sandbox.example').waitFor();
    const body = await message.locator('pre').textContent();
    expect(body).toContain(`This is a test message sent through connector ${connector.id}`);
    // The HTML part (<p>, <code>) is never rendered: only its text twin is.
    expect(await message.locator('p, code').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('connectors-sandbox-mailbox'), fullPage: true });

    // Refresh picks up mail sent elsewhere (an agent, over the API).
    await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'babbage@example.com' },
    });
    await mailbox.getByRole('button', { name: 'Refresh' }).click();
    await mailbox.getByRole('listitem').filter({ hasText: 'babbage@example.com' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the API’s reason inside the dialog when the test email is refused', async () => {
    const owner = await newOwner();
    const connector = await connected(owner.token, 'stale@sandbox.example');
    const { page, context, problems } = await openConnectors(owner);
    await row(page, connector.id).getByText('Connected', { exact: true }).waitFor();
    // Disconnected elsewhere after the page loaded: the page still offers the test email.
    expect(
      (await t.request(`/api/v1/connectors/${connector.id}`, { method: 'DELETE', token: owner.token })).status,
    ).toBe(200);

    await row(page, connector.id).getByRole('button', { name: 'Send test email from stale@sandbox.example' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test email' });
    await dialog.getByRole('button', { name: 'Send test email' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText(`Connector ${connector.id} is revoked.`).waitFor();
    expect(await alert.textContent()).not.toContain('connector_id:');
    expect(unexpectedProblems(problems, [409])).toEqual([]);
    await context.close();
  });

  it('disconnects after a confirmation, and the connector shows as revoked', async () => {
    const owner = await newOwner();
    const connector = await connected(owner.token, 'leaving@sandbox.example');
    const { page, context, problems } = await openConnectors(owner);
    const line = row(page, connector.id);
    await line.getByText('Connected', { exact: true }).waitFor();

    await line.getByRole('button', { name: 'Disconnect leaving@sandbox.example' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect this account?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await connectorStatus(owner.token, connector.id)).toBe('connected');

    await line.getByRole('button', { name: 'Disconnect leaving@sandbox.example' }).click();
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await line.getByText('Revoked').waitFor();
    await line.getByRole('button', { name: 'Reconnect leaving@sandbox.example' }).waitFor();
    expect(await line.getByRole('button', { name: /Send test email/ }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'leaving@sandbox.example was disconnected' }).waitFor();
    expect(await connectorStatus(owner.token, connector.id)).toBe('revoked');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows a member the API’s reason when they disconnect an account someone else connected', async () => {
    const owner = await newOwner();
    const connector = await connected(owner.token, 'owners@sandbox.example');
    const email = uniqueEmail('member');
    const inv = (await (
      await t.request('/api/v1/invitations', { method: 'POST', token: owner.token, json: { email, role: 'member' } })
    ).json()) as { token: string };
    const password = 'member password here';
    expect(
      (
        await t.request('/api/v1/invitations/accept', {
          method: 'POST',
          json: { token: inv.token, name: 'Charles Babbage', password },
        })
      ).status,
    ).toBe(201);

    const { page, context, problems } = await openConnectors({ email, password });
    await row(page, connector.id).getByRole('button', { name: 'Disconnect owners@sandbox.example' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect this account?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await confirm
      .getByRole('alert')
      .getByText('Only workspace admins, or the member who connected it, can revoke a connector.')
      .waitFor();
    expect(await connectorStatus(owner.token, connector.id)).toBe('connected');
    expect(unexpectedProblems(problems, [403])).toEqual([]);
    await context.close();
  });

  it('reconnects a failed connector through a fresh consent link', async () => {
    const owner = await newOwner();
    const connector = await startConnector(owner.token);
    await playHuman(connector.authorization_url as string, { email: 'ada@sandbox.example', deny: true });
    const { page, context, problems } = await openConnectors(owner);
    const line = row(page, connector.id);
    await line.getByText('Failed').waitFor();
    await line.getByText('Access was not allowed on the consent page.').waitFor();

    const popup = page.waitForEvent('popup');
    await line.getByRole('button', { name: /^Reconnect / }).click();
    const consent = await popup;
    await consent.getByRole('button', { name: 'Allow' }).click();
    await consent.getByRole('heading', { name: 'Connected' }).waitFor();
    await line.getByText('Connected', { exact: true }).waitFor();
    await line.getByText(owner.email).waitFor();
    expect(await page.locator('tr[data-connector-id]').count()).toBe(1);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('stops following a connector when the page is left', async () => {
    const owner = await newOwner();
    const { page, context, problems } = await openConnectors(owner);
    const popup = page.waitForEvent('popup');
    const followed = page.waitForRequest((r) => r.url().includes('?wait_seconds=25'));
    await page.getByRole('button', { name: 'Connect Gmail' }).click();
    await (await popup).close();
    const request = await followed;
    const aborted = page.waitForEvent('requestfailed', (r) => r === request);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect((await aborted).failure()?.errorText).toContain('ABORTED');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
