// Sequences → Approvals in a real browser against the real app: the approval_url an agent hands to its
// human opens the review after sign-in, with every step rendered for the workspace's leads; a person
// approves the revision shown or rejects it with a note; an approval of a revision that changed meanwhile
// is refused and the current one shown; a failing check blocks approval; a decided sequence shows no buttons.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { getSequence, ok, pendingSequence, sendingWorkspace, type SendingWorkspace } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: SendingWorkspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  browser = await sharedBrowser();
  ws = await sendingWorkspace(t, [{ email: 'grace@example.com', first_name: 'Grace', company: 'Navy' }]);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

/** Opens `url` signed out, signs in as the owner and waits for the page to settle on `heading`. */
async function openSignedIn(url: string, heading: string): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto(url);
  await signInThroughForm(admin.page, ws.owner.email, ws.owner.password);
  await admin.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return admin;
}

const detail = (page: Page, term: string) =>
  page.getByRole('region', { name: 'Sequence details' }).locator(`dt:text-is("${term}") + dd`);

describe('admin panel: approvals', () => {
  it('opens the approval_url after sign-in with the rendered preview, and approves the revision shown', async () => {
    const seq = await pendingSequence(t, ws, 'Engines intro');
    expect(seq.approval_url).toBe(`${server.url}/admin/approvals?sequence=${seq.id}`);
    const { page, context, problems } = await openSignedIn(seq.approval_url, 'Engines intro');
    expect(new URL(page.url()).search).toBe(`?sequence=${seq.id}`);
    expect(await page.getByRole('link', { name: 'Approvals' }).getAttribute('aria-current')).toBe('page');

    expect(await detail(page, 'Status').textContent()).toBe('Pending approval');
    expect(await detail(page, 'Revision').textContent()).toBe('1');
    expect(await detail(page, 'Sender').textContent()).toContain('sales@sandbox.example');
    await detail(page, 'Sender').getByText('Sandbox', { exact: true }).waitFor();
    expect(await detail(page, 'Schedule').textContent()).toBe('Every day, any time (UTC)');
    expect(await detail(page, 'Tracking').textContent()).toBe('Open tracking: off, Click tracking: off');
    expect(await detail(page, 'Daily limit').textContent()).toBe('500 messages a day');

    const grace = page.getByRole('region', { name: 'Messages to grace@example.com' });
    await grace.getByText('Hi Grace', { exact: true }).waitFor();
    const text = await grace.getByLabel('Text of step 1').textContent();
    expect(text).toContain('Hello Grace,');
    expect(text).toContain('1 Main St, Springfield');
    expect(text).toMatch(/Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
    // The HTML part is shown as its source, never as markup.
    await grace.getByText('HTML part (source)').click();
    expect(await grace.locator('.mail-source').textContent()).toContain('<strong>engines</strong>');
    expect(await grace.locator('strong', { hasText: 'engines' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Checks' }).locator('.check-blocking').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('approvals-review'), fullPage: true });

    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this sequence?' });
    await dialog.getByLabel('Note (optional)').fill('Looks good.');
    await dialog.getByRole('button', { name: 'Approve revision 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved revision 1 of “Engines intro”' }).waitFor();
    await page.getByText('This sequence is approved: there is nothing to decide here.').waitFor();
    expect(await detail(page, 'Status').textContent()).toBe('Approved');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    const approved = await getSequence(t, ws.owner.token, seq.id);
    expect(approved).toMatchObject({
      status: 'approved',
      approval: { decision: 'approved', revision: 1, by: ws.owner.userId, note: 'Looks good.' },
    });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('rejects with a note, which is required, and the sequence goes back to draft', async () => {
    const seq = await pendingSequence(t, ws, 'Too pushy');
    const { page, context, problems } = await openSignedIn(seq.approval_url, 'Too pushy');
    await page.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this sequence?' });
    await dialog.getByRole('button', { name: 'Reject' }).click();
    expect(
      await dialog.getByLabel('Note for the author').evaluate((el) => (el as HTMLTextAreaElement).validity.valid),
    ).toBe(false);
    expect((await getSequence(t, ws.owner.token, seq.id)).status).toBe('pending_approval');

    await dialog.getByLabel('Note for the author').fill('Softer tone, please.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').filter({ hasText: 'Rejected: “Too pushy” is draft again' }).waitFor();
    expect(await detail(page, 'Status').textContent()).toBe('Draft');
    expect(await detail(page, 'Last decision').textContent()).toContain('Softer tone, please.');
    const rejected = await getSequence(t, ws.owner.token, seq.id);
    expect(rejected).toMatchObject({
      status: 'draft',
      approval: { decision: 'rejected', revision: 1, note: 'Softer tone, please.' },
    });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('refuses to approve a revision that changed after it was shown, and shows the current one', async () => {
    const seq = await pendingSequence(t, ws, 'Moving target');
    const { page, context, problems } = await openSignedIn(seq.approval_url, 'Moving target');
    await page.getByText('Hi Grace', { exact: true }).waitFor();

    // Meanwhile it goes back to draft, is edited and submitted again: revision 2.
    const token = ws.owner.token;
    await ok(
      t.request(`/api/v1/sequences/${seq.id}/reject`, { method: 'POST', token, json: { note: 'edit the subject' } }),
    );
    const edited = { name: 'Moving target', steps: [{ subject: 'Hello again {{first_name}}', body: 'Hello.' }] };
    await ok(
      t.request(`/api/v1/sequences/${seq.id}`, { method: 'PATCH', token, headers: { 'If-Match': '1' }, json: edited }),
    );
    expect((await ok(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token }))).revision).toBe(2);

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve revision 1' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'You reviewed revision 1, but the sequence is now at revision 2' })
      .waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await getSequence(t, token, seq.id)).status).toBe('pending_approval');

    await page.getByRole('button', { name: 'Show the current revision' }).click();
    await page.getByText('Hello again Grace', { exact: true }).waitFor();
    expect(await detail(page, 'Revision').textContent()).toBe('2');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(unexpectedProblems(problems, [409])).toEqual([]);
    await context.close();
  });

  it('highlights a blocking check and does not offer approval while it fails', async () => {
    const seq = await pendingSequence(t, ws, 'No address');
    await ok(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token: ws.owner.token,
        json: { postal_address: null },
      }),
    );
    try {
      const { page, context, problems } = await openSignedIn(seq.approval_url, 'No address');
      const blocking = page.getByRole('region', { name: 'Checks' }).locator('.check-blocking');
      await blocking.first().waitFor();
      expect(await blocking.first().textContent()).toMatch(/Blocking.*postal address/i);
      expect(await page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
      await page.getByText('A blocking check fails').waitFor();
      expect(await page.getByRole('button', { name: 'Reject' }).isEnabled()).toBe(true);
      await page.screenshot({ path: screenshotPath('approvals-blocked'), fullPage: true });
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    } finally {
      await ok(
        t.request('/api/v1/workspace/settings', {
          method: 'PATCH',
          token: ws.owner.token,
          json: { postal_address: '1 Main St, Springfield' },
        }),
      );
    }
  });

  it('lists the sequences pending approval, opens one, and goes back with the browser', async () => {
    const seq = await pendingSequence(t, ws, 'Listed one');
    const { page, context, problems } = await openSignedIn('/admin/approvals', 'Approvals');
    const row = page.locator(`tr[data-sequence-id="${seq.id}"]`);
    await row.getByText('sales@sandbox.example').waitFor();
    await row.getByText('Sandbox', { exact: true }).waitFor();
    expect(await page.locator('tr[data-sequence-id]').count()).toBe(
      (await ok(t.request('/api/v1/sequences?status=pending_approval', { token: ws.owner.token }))).data.length,
    );
    await page.screenshot({ path: screenshotPath('approvals-list') });

    await row.getByRole('link', { name: 'Review Listed one' }).click();
    await page.getByRole('heading', { name: 'Listed one', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?sequence=${seq.id}`);
    await page.getByText('Hi Grace', { exact: true }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'All sequences pending approval' }).waitFor({ state: 'detached' });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says when nothing waits for approval, and when a linked sequence does not exist', async () => {
    const other = await t.signup();
    const admin = await openPage(browser, server.url);
    await admin.page.goto('/admin/approvals');
    await signInThroughForm(admin.page, other.email, other.password);
    await admin.page.getByText('Nothing to approve').waitFor();
    await admin.page.goto('/admin/approvals?sequence=seq_00000000000000000000000000');
    await admin.page.getByRole('alert').filter({ hasText: 'There is no such sequence in this workspace' }).waitFor();
    await admin.page.getByRole('link', { name: 'All sequences pending approval' }).click();
    await admin.page.getByText('Nothing to approve').waitFor();
    expect(unexpectedProblems(admin.problems, [404])).toEqual([]);
    await admin.context.close();
  });
});
