// Outreach → Replies in a real browser against the real app: a sequence wrote to two leads in sandbox mode, the
// leads answered (simulate_sandbox_inbound, then the mailbox sync), and the inbox lists the answers, filtered by
// kind in the address. A conversation shows who wrote what and when, as text; a person's reply is sent at once,
// an agent's waits for approval (linked to Approvals) while the workspace requires it and is sent when it does
// not; "Reply as this lead" (sandbox) answers as the lead and the answer shows once the sync has read it.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { syncMailbox } from '../../src/handlers/replies/sync-mailbox.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import {
  approvedSequence,
  drain,
  json,
  readyWorkspace,
  type Workspace,
} from '../handlers/sequences/sequence-fixtures.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';
import { holdsLayout } from './helpers/layout-faults.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: Workspace;
let agentKey: string;
let sequenceId: string;

const anytime = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  ws = await readyWorkspace(
    t,
    [
      { email: 'grace@example.com', first_name: 'Grace' },
      { email: 'alan@example.com', first_name: 'Alan' },
    ],
    {
      signup: { name: 'Ada Lovelace', workspace_name: 'Analytical Engines' },
      capabilities: ['read_replies', 'read_reply_text'],
    },
  );
  agentKey = (await t.createKey(ws.owner.token, 'agent')).key;
  const seq = await approvedSequence(t, ws, {
    name: 'Engines intro',
    sender_connector_id: ws.connector.id,
    schedule: anytime,
    daily_limit: 100,
    steps: [{ subject: 'Hello {{first_name}}', body: 'Hi {{first_name}}, shall we talk about engines?' }],
  });
  sequenceId = seq.id;
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  await drain(t);
  const sent = await json(t.request(`/api/v1/sent-messages?status=sent`, { token: ws.owner.token }));
  const to = (email: string) => sent.data.find((m: any) => m.to === email).id as string;
  await answer(to('grace@example.com'), 'reply', 'Sounds good <b>tell me more</b>.');
  await answer(to('alan@example.com'), 'auto_reply', 'Back on Monday.');
  await sync();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

const answer = (messageId: string, kind: string, text: string) =>
  json(
    t.request('/api/v1/sandbox/inbound', {
      method: 'POST',
      token: ws.owner.token,
      json: { message_id: messageId, kind, text },
    }),
    201,
  );
const sync = async () => expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
const grace = () => ws.leads.find((l) => l.email === 'grace@example.com') as { id: string };
const setApproval = (on: boolean) =>
  json(
    t.request('/api/v1/workspace/settings', {
      method: 'PATCH',
      token: ws.owner.token,
      json: { require_human_approval: on },
    }),
  );
const agentReply = (body: string) =>
  json(
    t.request(`/api/v1/leads/${grace().id}/conversation/replies`, { method: 'POST', token: agentKey, json: { body } }),
    201,
  );

async function signedIn(path: string, heading: string, email = ws.owner.email, password = ws.owner.password) {
  const admin: AdminPage = await openPage(browser, server.url);
  await admin.page.goto(path);
  await signInThroughForm(admin.page, email, password);
  await admin.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return admin;
}

describe('admin panel: replies', () => {
  it('lists what leads sent back with lead, sequence, kind, text and time, filtered by kind in the address', async () => {
    const { page, context, problems } = await signedIn('/admin/replies', 'Replies');
    const table = page.getByRole('table', { name: /Replies/ });
    const graceRow = table.getByRole('row').filter({ hasText: 'grace@example.com' });
    await graceRow.waitFor();
    expect(await graceRow.getByRole('link', { name: 'Engines intro' }).getAttribute('href')).toBe(
      `/admin/sequences/${sequenceId}`,
    );
    await graceRow.getByText('Reply', { exact: true }).waitFor();
    // The lead's HTML-looking words are text, never markup.
    await graceRow.getByText('Sounds good <b>tell me more</b>.').waitFor();
    expect(await graceRow.locator('b').count()).toBe(0);
    await graceRow.locator('time').waitFor();
    const alanRow = table.getByRole('row').filter({ hasText: 'alan@example.com' });
    await alanRow.getByText('Out of office').waitFor();
    await page.screenshot({ path: screenshotPath('replies'), fullPage: true });
    await holdsLayout(page, graceRow.getByRole('link', { name: 'Open the conversation with grace@example.com' }));

    await page.getByLabel('Kind').selectOption('auto_reply');
    await expect.poll(() => new URL(page.url()).search).toBe('?classification=auto_reply');
    await table.getByRole('row').filter({ hasText: 'alan@example.com' }).waitFor();
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'grace@example.com' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Replies', level: 1 }).waitFor();
    expect(await page.getByLabel('Kind').inputValue()).toBe('auto_reply');
    await page
      .getByRole('table', { name: /Replies/ })
      .getByRole('row')
      .filter({ hasText: 'alan@example.com' })
      .waitFor();

    await page.getByLabel('Kind').selectOption('bounce');
    await page.getByRole('heading', { name: 'No matching replies' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('opens a conversation in order, and a person’s reply is sent at once even while approval is required', async () => {
    await setApproval(true);
    const { page, context, problems } = await signedIn('/admin/replies', 'Replies');
    await page.getByRole('link', { name: 'Open the conversation with grace@example.com' }).click();
    await page.getByRole('heading', { name: 'Conversation with grace@example.com', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?lead=${grace().id}`);
    const thread = page.getByRole('list', { name: 'Messages, oldest first' });
    const items = thread.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).getAttribute('data-kind')).toBe('sequence_message');
    await items.nth(0).getByText('You · sequence email, step 1').waitFor();
    await items.nth(0).getByText('Hello Grace').waitFor();
    expect(await items.nth(1).getAttribute('data-kind')).toBe('inbound');
    await items.nth(1).getByText('grace@example.com', { exact: true }).waitFor();
    expect((await items.nth(1).locator('pre').textContent())?.trim()).toBe('Sounds good <b>tell me more</b>.');

    await page.getByLabel('Your reply to grace@example.com').fill('Hi Grace,\nTuesday at ten?');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to grace@example.com' }).waitFor();
    const mine = thread.locator('[data-kind="conversation_reply"]');
    await mine.getByText('Sent', { exact: true }).waitFor();
    expect(await mine.locator('pre').textContent()).toBe('Hi Grace,\nTuesday at ten?');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('replies-conversation'), fullPage: true });
    await holdsLayout(page, page.getByRole('button', { name: 'Send reply' }));
    const replies = await json(
      t.request(`/api/v1/conversation-replies?lead_id=${grace().id}`, { token: ws.owner.token }),
    );
    expect(replies.data.map((r: any) => r.status)).toEqual(['sent']);

    await page.getByRole('link', { name: 'All replies' }).click();
    await page.getByRole('heading', { name: 'Replies', level: 1 }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows an agent’s reply waiting for approval with the link to Approvals, and sent when approval is off', async () => {
    await setApproval(true);
    const { page, context, problems } = await signedIn(
      `/admin/replies?lead=${grace().id}`,
      'Conversation with grace@example.com',
    );
    const thread = page.getByRole('list', { name: 'Messages, oldest first' });
    await thread.getByRole('listitem').first().waitFor();
    // Written while the page is open: the conversation follows itself.
    const pending = await agentReply('Our engine computes Bernoulli numbers.');
    expect(pending.status).toBe('pending_approval');
    const item = thread.locator(`[data-entry-id="${pending.id}"]`);
    await item.getByText('Pending approval').waitFor();
    expect(await item.getByRole('link', { name: 'Review it in Approvals' }).getAttribute('href')).toBe(
      `/admin/approvals?reply=${pending.id}`,
    );

    await setApproval(false);
    const sent = await agentReply('Shall I send the brochure?');
    expect(sent.status).toBe('sent');
    await thread.locator(`[data-entry-id="${sent.id}"]`).getByText('Sent', { exact: true }).waitFor();
    await setApproval(true);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('answers as the lead in sandbox mode, and the answer shows once the mailbox sync has read it', async () => {
    const { page, context, problems } = await signedIn(
      `/admin/replies?lead=${grace().id}`,
      'Conversation with grace@example.com',
    );
    const helper = page.getByRole('region', { name: /Sandbox/ });
    await helper.getByRole('button', { name: 'Reply as this lead (sandbox)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply as this lead' });
    await dialog.getByText('Hello Grace').waitFor();
    await dialog.getByLabel('Text').fill('Friday works better.');
    await dialog.getByRole('button', { name: 'Send as the lead' }).click();
    await dialog.waitFor({ state: 'detached' });
    await helper.getByText('It shows in this conversation once the mailbox sync has read it.').waitFor();
    await sync();
    const thread = page.getByRole('list', { name: 'Messages, oldest first' });
    await thread.locator('[data-kind="inbound"] pre').filter({ hasText: 'Friday works better.' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the API’s refusal inside the form, and keeps what was written', async () => {
    const alan = ws.leads.find((l) => l.email === 'alan@example.com') as { id: string };
    await json(t.request(`/api/v1/leads/${alan.id}/unsubscribe`, { method: 'POST', token: ws.owner.token }));
    const { page, context, problems } = await signedIn(
      `/admin/replies?lead=${alan.id}`,
      'Conversation with alan@example.com',
    );
    const form = page.getByRole('form', { name: 'Reply' });
    await form.getByLabel('Your reply to alan@example.com').fill('Welcome back, Alan.');
    await form.getByRole('button', { name: 'Send reply' }).click();
    const refusal = form.getByRole('alert');
    await refusal.getByText('The reply was not sent').waitFor();
    await refusal.getByText(/nothing more is sent to this address/).waitFor();
    expect(await form.getByLabel('Your reply to alan@example.com').inputValue()).toBe('Welcome back, Alan.');
    const replies = await json(t.request(`/api/v1/conversation-replies?lead_id=${alan.id}`, { token: ws.owner.token }));
    expect(replies.data).toEqual([]);
    expect(unexpectedProblems(problems, [422])).toEqual([]);
    await context.close();
  });

  it('says so when nothing came back yet, and when a conversation cannot be read', async () => {
    const other = await t.signup({ name: 'Charles Babbage', workspace_name: 'Difference Engines' });
    const { page, context, problems } = await signedIn('/admin/replies', 'Replies', other.email, other.password);
    await page.getByRole('heading', { name: 'No replies yet' }).waitFor();
    // Another workspace's lead is not found.
    await page.goto(`/admin/replies?lead=${grace().id}`);
    await page.getByText('Could not load this page').waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(unexpectedProblems(problems, [404])).toEqual([]);
    await context.close();
  });
});
