// Outreach → Leads in a real browser against the real app, with the job queue working in process: a CSV
// file with bad rows is imported through the file input (more rows than the API imports in the request, so
// the page follows the operation's progress), the list is searched, filtered and paged by cursor, a lead's
// page shows its fields, stage, sequence, messages and reply, its stage is changed, it is unsubscribed and
// deleted after a confirmation (cancel keeps it), and an export becomes a download link to the CSV.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncMailbox } from '../../src/handlers/replies/sync-mailbox.ts';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import type { SignupResult, TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { readyWorkspace, type Workspace } from '../handlers/sequences/sequence-fixtures.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';
import { ok, oneStep, pendingSequence } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
/** Gmail in sandbox mode and a few named leads; one of them was written to and answered. */
let ws: Workspace;
let ada: { id: string; email: string };
let sequence: any;

const people = [
  {
    email: 'ada@engines.example',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company: 'Analytical Engines',
    tags: ['vip'],
  },
  {
    email: 'charles@engines.example',
    first_name: 'Charles',
    last_name: 'Babbage',
    company: 'Difference Ltd',
    tags: ['vip'],
  },
  { email: 'grace@navy.example', first_name: 'Grace', last_name: 'Hopper', company: 'Navy', tags: ['cobol'] },
  { email: 'alan@bletchley.example', first_name: 'Alan', last_name: 'Turing', company: 'Bletchley', tags: [] },
];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  ws = await readyWorkspace(t, people, {
    signup: { name: 'Ada Admin', workspace_name: 'Analytical Engines' },
    account: 'sales@sandbox.example',
    postalAddress: '1 Main St, Springfield',
    capabilities: ['read_replies', 'read_reply_text'],
  });
  ada = ws.leads.find((l) => l.email === people[0].email) as { id: string; email: string };
  const token = ws.owner.token;
  const seq = await pendingSequence(t, ws, 'Engines intro', oneStep(ws.connector.id, 'Engines intro'));
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: seq.revision } }),
  );
  sequence = (
    await ok(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token,
        json: { enroll: { lead_ids: [ada.id] } },
      }),
    )
  ).sequence;
  for (let pass = 0; pass < 20; pass++) {
    const mailboxes = await dispatchDue(t.deps);
    if (!mailboxes.length) break;
    for (const m of mailboxes) await sendFromMailbox(t.deps, m);
  }
  // The job queue works in this app too, so its own sender may hold the message while the loop above finds
  // nothing due: wait for the one send, whoever made it.
  const sentMessages = async () => (await ok(t.request(`/api/v1/sent-messages?lead_id=${ada.id}`, { token }))).data;
  const [message] = await vi.waitFor(
    async () => {
      const messages = await sentMessages();
      expect(messages.map((m: any) => m.status)).toEqual(['sent']);
      return messages;
    },
    { timeout: 20_000, interval: 100 },
  );
  await ok(
    t.request('/api/v1/sandbox/inbound', {
      method: 'POST',
      token,
      json: { message_id: message.id, kind: 'reply', text: 'Tell me more about the engine.' },
    }),
    201,
  );
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

async function openLeads(owner: SignupResult, path = '/admin/leads'): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto(path);
  await signInThroughForm(admin.page, owner.email, owner.password);
  if (path.startsWith('/admin/leads?') || path === '/admin/leads')
    await admin.page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
  return admin;
}

const rows = (page: Page) => page.getByRole('region', { name: 'Leads' }).locator('tbody tr');
const emails = (page: Page) =>
  rows(page).evaluateAll((trs) =>
    trs.map((tr) => (tr.querySelector('.cell-sub') ?? tr.querySelector('.lead-link'))?.textContent),
  );

/** A CSV of `n` good rows and three bad ones (an invalid address, a missing one, a duplicate of row 1). */
function csvWithBadRows(n: number): string {
  const lines = ['email,first_name,company,tags'];
  for (let i = 0; i < n; i++) lines.push(`person${i}@import.example,Person${i},Import Co,imported`);
  lines.splice(11, 0, 'not-an-address,Broken,Import Co,');
  lines.splice(21, 0, ',Nobody,Import Co,');
  return `${lines.join('\n')}\n`;
}

/**
 * Nothing in the page's main region reaches past the viewport's right edge (tables scroll inside their
 * wrappers instead), and each named button lies wholly inside the viewport's width.
 */
async function expectNothingClipped(page: Page, buttons: string[]): Promise<void> {
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => !el.closest('.table-wrap') && el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`),
  );
  expect(outside).toEqual([]);
  const width = page.viewportSize()?.width ?? 0;
  for (const name of buttons) {
    const box = await page.getByRole('button', { name, exact: true }).first().boundingBox();
    expect(box, name).not.toBeNull();
    expect(box?.x, name).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(width);
  }
}

describe('admin panel: leads', () => {
  it('imports a CSV file with bad rows: follows the progress to its end, then shows the counts and the row errors', async () => {
    const owner = await t.signup({ workspace_name: 'Importers' });
    const { page, context, problems } = await openLeads(owner);
    await page.getByText('No leads yet').waitFor();
    // More than the 1,000 rows the API imports in the request: the import is an operation the page follows.
    const good = 1_050;
    await page.getByLabel('Import CSV').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csvWithBadRows(good)),
    });
    const card = page.getByRole('region', { name: 'Lead import' });
    await card.getByRole('heading', { name: 'Imported people.csv' }).waitFor({ timeout: 60_000 });
    const bar = card.getByRole('progressbar', { name: 'Importing people.csv' });
    expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
    await card.getByText(`1,052 of 1,052 rows`).waitFor();
    await card.getByText('Imported with errors').waitFor();
    const counts = await card
      .locator('.import-count')
      .evaluateAll((els) =>
        els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent]),
      );
    expect(counts).toEqual([
      ['Rows', '1,052'],
      ['Created', '1,050'],
      ['Updated', '0'],
      ['Skipped (already there)', '0'],
      ['Not imported', '2'],
    ]);
    const errors = card.getByRole('table', { name: 'Rows not imported' });
    await errors.waitFor();
    expect(await errors.locator('tbody tr').count()).toBe(2);
    expect(await errors.locator('tbody tr').first().textContent()).toContain('not-an-address');
    await card.getByText('2 row errors').waitFor();
    await page.screenshot({ path: screenshotPath('lead-import'), fullPage: true });

    // The list behind it reloaded, and "Show these leads" narrows it to the import, paged by cursor.
    await card.getByRole('link', { name: 'Show these leads' }).click();
    expect(new URL(page.url()).searchParams.get('import_id')).toMatch(/^imp_/);
    await page.getByText('50 leads shown').waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('100 leads shown').waitFor();
    const shown = await emails(page);
    expect(new Set(shown).size).toBe(100);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('imports a small file in the request and shows it in the list at once', async () => {
    const owner = await t.signup({ workspace_name: 'Small imports' });
    const { page, context, problems } = await openLeads(owner);
    await page.getByText('No leads yet').waitFor();
    const csv =
      'email,first_name,last_name,company\nmary@small.example,Mary,Somerville,Royal Society\nbad-address,Bad,Row,\n';
    await page
      .getByLabel('Import CSV')
      .setInputFiles({ name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const card = page.getByRole('region', { name: 'Lead import' });
    await card.getByRole('heading', { name: 'Imported small.csv' }).waitFor();
    await card.getByText('2 of 2 rows').waitFor();
    // The rows not imported are read after the import's figures: wait for the first before counting them.
    const notImported = card.getByRole('table', { name: 'Rows not imported' }).locator('tbody tr');
    await notImported.first().waitFor();
    expect(await notImported.count()).toBe(1);
    await page.getByText('1 lead', { exact: true }).waitFor();
    expect(await emails(page)).toEqual(['mary@small.example']);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('searches and filters the list, keeping the filters in the address', async () => {
    await ok(t.request(`/api/v1/leads/${ws.leads[3].id}/unsubscribe`, { method: 'POST', token: ws.owner.token }));
    const { page, context, problems } = await openLeads(ws.owner);
    await page.getByText('4 leads', { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('leads'), fullPage: true });

    await page.getByLabel('Search').fill('babbage');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 lead', { exact: true }).waitFor();
    expect(await emails(page)).toEqual(['charles@engines.example']);
    expect(new URL(page.url()).search).toBe('?q=babbage');

    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Tag', { exact: true }).fill('vip');
    await page.getByLabel('Tag', { exact: true }).press('Enter');
    await page.getByText('2 leads', { exact: true }).waitFor();
    expect((await emails(page)).sort()).toEqual(['ada@engines.example', 'charles@engines.example']);

    await page.getByLabel('Tag', { exact: true }).fill('');
    await page.getByLabel('Tag', { exact: true }).press('Enter');
    await page.getByLabel('Status', { exact: true }).selectOption('unsubscribed');
    await page.getByText('1 lead', { exact: true }).waitFor();
    expect(await emails(page)).toEqual(['alan@bletchley.example']);
    expect(new URL(page.url()).search).toBe('?status=unsubscribed');

    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Stage', { exact: true }).selectOption('won');
    await page.getByText('No matching leads').waitFor();
    await page.reload();
    await page.getByText('No matching leads').waitFor();
    expect(await page.getByLabel('Stage', { exact: true }).inputValue()).toBe('won');
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.getByText('4 leads', { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it("opens a lead's page with its fields, stage, sequence, messages and reply, and changes its stage", async () => {
    const { page, context, problems } = await openLeads(ws.owner);
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/leads/${ada.id}`);
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Analytical Engines').waitFor();
    await details.getByText('vip').waitFor();
    await details.getByText('Active').waitFor();

    const sequences = page.getByRole('region', { name: 'Sequences' });
    await sequences.getByRole('link', { name: 'Engines intro' }).waitFor();
    expect(await sequences.getByRole('link', { name: 'Engines intro' }).getAttribute('href')).toBe(
      `/admin/sequences/${sequence.id}`,
    );
    const messages = page.getByRole('region', { name: 'Messages sent' });
    await messages.getByText('Hi Ada').waitFor();
    await messages.locator('tbody').getByText('Sent', { exact: true }).waitFor();
    const replies = page.getByRole('region', { name: 'Replies' });
    await replies.getByText('Tell me more about the engine.').waitFor();
    await page.screenshot({ path: screenshotPath('lead'), fullPage: true });

    const stage = page.getByRole('form', { name: 'Change the stage' });
    const before = await stage.locator('.stage-now').textContent();
    await stage.getByLabel('Stage', { exact: true }).selectOption('interested');
    await stage.getByLabel('Note (optional)').fill('Asked for a demo');
    await stage.getByRole('button', { name: 'Change stage' }).click();
    await page.getByText('Stage changed to Interested.').waitFor();
    expect(before).not.toContain('Interested');
    expect(await page.getByRole('form', { name: 'Change the stage' }).locator('.stage-now').textContent()).toContain(
      'Interested',
    );
    const lead = await ok(t.request(`/api/v1/leads/${ada.id}`, { token: ws.owner.token }));
    expect(lead.stage).toBe('interested');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('unsubscribes and deletes a lead only after a confirmation; cancel keeps it', async () => {
    const grace = ws.leads.find((l) => l.email === 'grace@navy.example') as { id: string };
    const { page, context, problems } = await openLeads(ws.owner, `/admin/leads/${grace.id}`);
    await page.getByRole('heading', { name: 'Grace Hopper', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsubscribe this lead?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await ok(t.request(`/api/v1/leads/${grace.id}`, { token: ws.owner.token }))).status).toBe('active');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await dialog.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('grace@navy.example is unsubscribed.').waitFor();
    await page.getByRole('region', { name: 'Details' }).getByText('Unsubscribed').waitFor();
    expect(await page.getByRole('button', { name: 'Unsubscribe' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this lead?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await t.request(`/api/v1/leads/${grace.id}`, { token: ws.owner.token })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete lead' }).click();
    await page.getByRole('heading', { name: 'Lead deleted', level: 1 }).waitFor();
    expect((await t.request(`/api/v1/leads/${grace.id}`, { token: ws.owner.token })).status).toBe(404);

    await page.getByRole('link', { name: '← Leads' }).click();
    await page.getByText('3 leads', { exact: true }).waitFor();
    expect(await emails(page)).not.toContain('grace@navy.example');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('exports the filtered list and offers the CSV as a download link', async () => {
    const { page, context, problems } = await openLeads(ws.owner, '/admin/leads?tag=vip');
    await page.getByText('2 leads', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const card = page.getByRole('region', { name: 'Lead export' });
    const link = card.getByRole('link', { name: /^Download leads-\d{4}-\d{2}-\d{2}\.csv$/ });
    await link.waitFor({ timeout: 30_000 });
    await card.getByText('2 leads, the leads matching the filters.').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain('ada@engines.example');
    expect(csv).toContain('charles@engines.example');
    expect(csv).not.toContain('alan@bletchley.example');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  }, 60_000);

  it('holds its layout at 390 and 768 px: tables scroll inside their cards and every action button stays in view', async () => {
    const { page, context, problems } = await openLeads(ws.owner);
    for (const width of [390, 768]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/admin/leads');
      await page.getByText(/^\d+ leads$/).waitFor();
      await expectNothingClipped(page, ['Export CSV', 'Import CSV', 'Search']);
      await page.screenshot({ path: screenshotPath(`leads-${width}`), fullPage: true });
      await page.getByRole('link', { name: 'Ada Lovelace' }).click();
      await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
      await page.getByRole('region', { name: 'Messages sent' }).locator('tbody tr').waitFor();
      await expectNothingClipped(page, ['Unsubscribe', 'Delete', 'Change stage']);
      await page.screenshot({ path: screenshotPath(`lead-${width}`), fullPage: true });
    }
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says there are no leads yet and offers the import', async () => {
    const owner = await t.signup({ workspace_name: 'Empty' });
    const { page, context, problems } = await openLeads(owner);
    await page.getByText('No leads yet').waitFor();
    await page.getByRole('button', { name: 'Import a CSV file' }).waitFor();
    expect(await page.getByRole('link', { name: 'Leads' }).getAttribute('aria-current')).toBe('page');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows an error state with a retry when the list cannot be read', async () => {
    const { page, context, problems } = await openLeads(ws.owner, '/admin/leads?import_id=not-an-import');
    await page.getByText('Could not load this page').waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await page.getByRole('link', { name: 'Show every import' }).click();
    await page.getByText(/^\d+ leads$/).waitFor();
    expect(unexpectedProblems(problems, [400])).toEqual([]);
    await context.close();
  });

  it('says when a lead does not exist', async () => {
    const { page, context, problems } = await openLeads(ws.owner, '/admin/leads/lead_00000000000000000000000000');
    await page.getByText('Lead not found').waitFor();
    expect(unexpectedProblems(problems, [404])).toEqual([]);
    await context.close();
  });
});
