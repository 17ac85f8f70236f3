// The sandbox mailbox's "Reply as this lead" in a real browser against the real app: a person answers a
// sandbox message as its lead (reply, auto-reply or bounce), and the answer shows in the mailbox as received,
// in the message's thread, through simulate_sandbox_inbound.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { playHuman, type Connector } from '../handlers/connectors/human.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
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

describe('admin panel: sandbox mailbox', () => {
  it('answers a sent sandbox message as its lead, and the answer shows as received in the same thread', async () => {
    const owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
    const res = await t.request('/api/v1/connectors/oauth', {
      method: 'POST',
      token: owner.token,
      json: { provider: 'gmail' },
    });
    const connector = (await res.json()) as Connector;
    await playHuman(connector.authorization_url as string, { email: 'grace@sandbox.example' });
    const sent = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'hopper@example.com' },
    });
    expect(sent.status).toBe(200);

    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/connectors');
    await signInThroughForm(page, owner.email, owner.password);
    const mailbox = page.getByRole('region', { name: 'Sandbox mailbox' });
    const original = mailbox.getByRole('listitem').filter({ hasText: 'hopper@example.com' });
    await original.getByRole('button', { name: /Reply as this lead/ }).click();

    const dialog = page.getByRole('dialog', { name: 'Reply as this lead' });
    await dialog.getByText('live mail cannot be faked', { exact: false }).waitFor();
    await dialog.getByLabel('Kind').selectOption('auto_reply');
    await dialog.getByLabel('Text').fill('Back on Monday.');
    await page.screenshot({ path: screenshotPath('sandbox-reply-as-lead') });
    await dialog.getByRole('button', { name: 'Send as the lead' }).click();
    await dialog.waitFor({ state: 'detached' });

    const received = mailbox.locator('.mail-item[data-direction="inbound"]');
    await received.getByRole('heading', { name: /^Automatic reply: / }).waitFor();
    await received.getByText('Received from the lead').waitFor();
    expect(await received.locator('pre').textContent()).toBe('Back on Monday.');
    expect(await received.getByRole('button', { name: /Reply as this lead/ }).count()).toBe(0);

    const [row] = await t.db.sql<{ thread_id: string; from_header: string }[]>`
      select thread_id, from_header from sandbox_messages where workspace_id = ${owner.workspaceId} and direction = 'inbound'`;
    const [first] = await t.db.sql<{ id: string }[]>`
      select id from sandbox_messages where workspace_id = ${owner.workspaceId} and direction = 'sent'`;
    expect(row).toEqual({ thread_id: first.id, from_header: 'hopper@example.com' });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
