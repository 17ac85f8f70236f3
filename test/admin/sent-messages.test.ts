// Sequences → Sent messages in a real browser against the real app: a launched sequence sends in sandbox
// mode (the dispatcher and the mailbox's sender run in process, as the jobs would), and the page lists
// what went out with the sandbox badge and mailbox, a page at a time, filtered by status and by the
// sequence a link names, and says what an uncertain message means.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';
import { ok, pendingSequence, sendingWorkspace, type SendingWorkspace } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: SendingWorkspace;
/** 51 messages: one more than the page's first page. */
let bulk: any;
let single: any;

const PAGE = 50;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  const leads = Array.from({ length: PAGE + 2 }, (_, i) => ({ email: `lead${i}@example.com`, first_name: `Lead${i}` }));
  ws = await sendingWorkspace(t, leads);
  bulk = await launched(
    'Bulk intro',
    ws.leads.slice(0, PAGE + 1).map((l) => l.id),
  );
  single = await launched('Single follow-up', [ws.leads[PAGE + 1].id]);
  await sendEverythingDue();
  const sent = await ok(t.request('/api/v1/sent-messages?status=sent&limit=100', { token: ws.owner.token }));
  expect(sent.data).toHaveLength(PAGE + 2);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

/** Approves (as the owner, a person) and launches a sequence with these leads enrolled. */
async function launched(name: string, leadIds: string[]): Promise<any> {
  const token = ws.owner.token;
  const seq = await pendingSequence(t, ws, name);
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: seq.revision } }),
  );
  const launch = await ok(
    t.request(`/api/v1/sequences/${seq.id}/launch`, { method: 'POST', token, json: { enroll: { lead_ids: leadIds } } }),
  );
  expect(launch.sequence.status).toBe('active');
  return launch.sequence;
}

/** What the dispatcher and each mailbox's sender jobs do, until nothing is due. */
async function sendEverythingDue(): Promise<void> {
  for (let pass = 0; pass < 20; pass++) {
    const mailboxes = await dispatchDue(t.deps);
    if (!mailboxes.length) return;
    for (const m of mailboxes) await sendFromMailbox(t.deps, m);
  }
}

async function openSentMessages(path = '/admin/sent-messages'): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto(path);
  await signInThroughForm(admin.page, ws.owner.email, ws.owner.password);
  await admin.page.getByRole('heading', { name: 'Sent messages', level: 1 }).waitFor();
  return admin;
}

const rows = (page: Page) => page.getByRole('region', { name: 'Sent messages' }).locator('tbody tr');

describe('admin panel: sent messages', () => {
  it('lists what was sent with the sandbox badge, loads more with the cursor, and shows the sandbox mailbox', async () => {
    const { page, context, problems } = await openSentMessages();
    await page.getByText(`${PAGE} messages shown`).waitFor();
    expect(await rows(page).count()).toBe(PAGE);
    expect(await page.getByRole('link', { name: 'Sent messages' }).getAttribute('aria-current')).toBe('page');

    const first = rows(page).first();
    expect(await first.getAttribute('data-status')).toBe('sent');
    await first.getByText('Sandbox', { exact: true }).waitFor();
    await first.getByText('Sent', { exact: true }).waitFor();
    expect(await first.locator('td').nth(0).textContent()).toMatch(/^Hi Lead\d+$/);
    expect(await first.locator('td').nth(1).textContent()).toBe('1');
    await page.getByText('Messages sent through a sandbox connector were not delivered').waitFor();

    const mailbox = page.getByRole('region', { name: 'Sandbox mailbox' });
    await mailbox.locator('.mail-item').first().waitFor();
    expect(await mailbox.locator('.mail-item').first().textContent()).toContain('1 Main St, Springfield');
    await page.screenshot({ path: screenshotPath('sent-messages') });

    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`${PAGE + 2} messages`, { exact: true }).waitFor();
    expect(await rows(page).count()).toBe(PAGE + 2);
    const ids = await rows(page).evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.messageId));
    expect(new Set(ids).size).toBe(PAGE + 2);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('filters by status, keeping the filter in the address', async () => {
    const { page, context, problems } = await openSentMessages();
    await page.getByText(`${PAGE} messages shown`).waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No matching messages').waitFor();
    expect(new URL(page.url()).search).toBe('?status=failed');
    await page.getByLabel('Status').selectOption('sent');
    await page.getByText(`${PAGE} messages shown`).waitFor();
    expect(
      await rows(page).evaluateAll((trs) => trs.every((tr) => (tr as HTMLElement).dataset.status === 'sent')),
    ).toBe(true);

    await page.reload();
    await page.getByText(`${PAGE} messages shown`).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('sent');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows only the sequence a link names, and every sequence again on request', async () => {
    const { page, context, problems } = await openSentMessages(`/admin/sent-messages?sequence_id=${single.id}`);
    await page.getByText('1 message', { exact: true }).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain(`lead${PAGE + 1}@example.com`);
    await page.getByRole('group', { name: 'Filters' }).getByText(single.id).waitFor();

    await page.getByRole('link', { name: 'Show every sequence' }).click();
    await page.getByText(`${PAGE} messages shown`).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(bulk.id).not.toBe(single.id);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says what an uncertain message means', async () => {
    // Only a process dying between handing a message to the provider and recording it makes one.
    const [message] = (await ok(t.request(`/api/v1/sent-messages?sequence_id=${single.id}`, { token: ws.owner.token })))
      .data;
    await t.db.sql`update sequence_messages set status = 'uncertain' where id = ${message.id}`;
    try {
      const { page, context, problems } = await openSentMessages('/admin/sent-messages?status=uncertain');
      const row = page.locator(`tr[data-message-id="${message.id}"]`);
      await row.getByText('May have been delivered; never retried.').waitFor();
      expect(await row.locator('.status-uncertain').getAttribute('title')).toMatch(
        /^May have been delivered; never retried\./,
      );
      expect(await rows(page).count()).toBe(1);
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    } finally {
      await t.db.sql`update sequence_messages set status = 'sent' where id = ${message.id}`;
    }
  });

  it('says when there are no messages yet', async () => {
    const other = await t.signup();
    const admin = await openPage(browser, server.url);
    await admin.page.goto('/admin/sent-messages');
    await signInThroughForm(admin.page, other.email, other.password);
    await admin.page.getByText('No messages yet').waitFor();
    expect(await admin.page.getByRole('region', { name: 'Sandbox mailbox' }).count()).toBe(0);
    expect(unexpectedProblems(admin.problems)).toEqual([]);
    await admin.context.close();
  });
});
