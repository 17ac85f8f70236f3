// Sequences → Approvals for replies to leads, in a real browser against the real app: the approval_url an
// agent's reply carries opens the reply (lead, subject, text) after sign-in; a person approves it and it is sent
// at once; from the list beside the sequences, a person rejects another with a note and it is never sent.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { json } from '../handlers/sequences/sequence-fixtures.ts';
import { conversingWorkspace, sandboxRaw, type Conversing } from '../handlers/replies/reply-fixtures.ts';
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
let c: Conversing;
let agentKey: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  c = await conversingWorkspace(t);
  agentKey = (await t.createKey(c.ws.owner.token, 'agent')).key;
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

const draft = (body: string) =>
  json(
    t.request(`/api/v1/leads/${c.ws.leads[0].id}/conversation/replies`, {
      method: 'POST',
      token: agentKey,
      json: { body },
    }),
    201,
  );
const replyStatus = async (id: string) => {
  const list = await json(t.request('/api/v1/conversation-replies', { token: c.ws.owner.token }));
  return list.data.find((r: any) => r.id === id);
};

async function openSignedIn(url: string, heading: string): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto(url);
  await signInThroughForm(admin.page, c.ws.owner.email, c.ws.owner.password);
  await admin.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return admin;
}

describe('admin panel: reply approvals', () => {
  it('opens a reply’s approval_url after sign-in and sends it once approved', async () => {
    const reply = await draft('Hi Grace,\nhappy to show you the engine on Tuesday.');
    expect(reply.approval_url).toBe(`${server.url}/admin/approvals?reply=${reply.id}`);
    const before = (await sandboxRaw(t, c.ws.owner.workspaceId)).length;
    const { page, context, problems } = await openSignedIn(reply.approval_url, 'Reply to grace@example.com');
    const details = page.getByRole('region', { name: 'Reply details' });
    expect(await details.locator('dt:text-is("Subject") + dd').textContent()).toBe(reply.subject);
    expect(await details.getByLabel('Reply text').textContent()).toBe(
      'Hi Grace,\nhappy to show you the engine on Tuesday.',
    );
    await page.screenshot({ path: screenshotPath('reply-approval-review'), fullPage: true });

    await page.getByRole('button', { name: 'Approve and send' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve and send this reply?' });
    await dialog.getByRole('button', { name: 'Approve and send' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to grace@example.com.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve and send' }).count()).toBe(0);
    expect((await replyStatus(reply.id)).status).toBe('sent');
    expect((await sandboxRaw(t, c.ws.owner.workspaceId)).length).toBe(before + 1);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('lists pending replies beside the sequences, and rejects one with a required note', async () => {
    const reply = await draft('Buy now!!!');
    const before = (await sandboxRaw(t, c.ws.owner.workspaceId)).length;
    const { page, context, problems } = await openSignedIn(`${server.url}/admin/approvals`, 'Approvals');
    const pending = page.getByRole('region', { name: 'Replies pending approval' });
    await pending.getByRole('link', { name: 'Review the reply to grace@example.com' }).click();
    await page.getByRole('heading', { name: 'Reply to grace@example.com', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?reply=${reply.id}`);

    await page.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this reply?' });
    await dialog.getByRole('button', { name: 'Reject' }).click();
    expect(
      await dialog.getByLabel('Note for the author').evaluate((el) => (el as HTMLTextAreaElement).validity.valid),
    ).toBe(false);
    await dialog.getByLabel('Note for the author').fill('Too pushy.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').filter({ hasText: 'Rejected: the reply will not be sent' }).waitFor();
    expect(await replyStatus(reply.id)).toMatchObject({ status: 'rejected', decision_note: 'Too pushy.' });
    expect((await sandboxRaw(t, c.ws.owner.workspaceId)).length).toBe(before);

    await page.getByRole('link', { name: 'All pending approvals' }).click();
    await page.getByRole('heading', { name: 'No replies to approve' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
