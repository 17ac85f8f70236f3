// What the agent run does with tools, done by a person in the panel: write a sequence (New sequence), submit it for
// approval, approve it under Approvals, then launch it with the leads to enroll; and run the store's sequence agent.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { sharedBrowser, releaseBrowser, openPage, signInThroughForm, unexpectedProblems } from './helpers/browser.ts';
import { getSequence, ok, sendingWorkspace, type SendingWorkspace } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: SendingWorkspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue' }));
  browser = await sharedBrowser();
  ws = await sendingWorkspace(t, [
    { email: 'grace@example.com', first_name: 'Grace', company: 'Navy', tags: ['navy'] },
    { email: 'ada@example.com', first_name: 'Ada', company: 'Engines' },
    { email: 'alan@example.com', first_name: 'Alan', company: 'Bletchley', tags: ['navy'] },
  ]);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

describe('admin panel: writing and launching a sequence', () => {
  it('creates a two-step draft, submits it, and after approval launches it to the leads with a tag', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/sequences');
    await signInThroughForm(page, ws.owner.email, ws.owner.password);
    await page.getByRole('heading', { name: 'Sequences', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'New sequence' }).click();
    const dialog = page.getByRole('dialog', { name: 'New sequence' });
    await dialog.getByLabel('Name').fill('Navy intro');
    await dialog.getByLabel(/sales@sandbox\.example/).check();
    await dialog.getByLabel('Subject').fill('Hello {{first_name}}');
    await dialog.getByLabel('Body').fill('Hi {{first_name}},\n\nA question about {{company}}.');
    await dialog.getByRole('button', { name: 'Add a step' }).click();
    await dialog.getByLabel('Wait (days after the previous step)').fill('2');
    await dialog.getByLabel('Body').nth(1).fill('Following up, {{first_name}}.');
    await dialog.getByRole('button', { name: 'Create draft' }).click();

    await page.waitForURL(/\/admin\/sequences\/seq_/);
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('heading', { name: 'Navy intro', level: 1 }).waitFor();
    const draft = await getSequence(t, ws.owner.token, id);
    expect(draft).toMatchObject({ status: 'draft', sender_connector_ids: [ws.connector.id] });
    expect(draft.steps.map((s: any) => [s.wait_days, s.body])).toEqual([
      [0, 'Hi {{first_name}},\n\nA question about {{company}}.'],
      [2, 'Following up, {{first_name}}.'],
    ]);

    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await page.getByText('Submitted: a person reviews').waitFor();
    expect((await getSequence(t, ws.owner.token, id)).status).toBe('pending_approval');

    // The approval itself happens where the preview is reviewed.
    await page.getByRole('link', { name: 'review it in Approvals' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Approve/ })
      .click();
    await expect.poll(async () => (await getSequence(t, ws.owner.token, id)).status).toBe('approved');

    await page.goto(`/admin/sequences/${id}`);
    await page.getByRole('button', { name: 'Launch' }).click();
    const launch = page.getByRole('dialog', { name: 'Launch “Navy intro”' });
    await launch.getByLabel('Tag', { exact: true }).fill('navy');
    expect(await launch.getByLabel('Leads with the tag').isChecked()).toBe(true);
    await launch.getByRole('button', { name: 'Launch' }).click();
    await launch.waitFor({ state: 'detached' }).catch(async () => {
      throw new Error(`the launch dialog stayed open: ${await launch.textContent()}`);
    });
    await page.getByText('Launched. 2 leads enrolled.').waitFor();
    expect((await getSequence(t, ws.owner.token, id)).status).toBe('active');
    const enrolled = await ok(t.request(`/api/v1/sequences/${id}/enrollments`, { token: ws.owner.token }));
    expect(enrolled.data).toHaveLength(2);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows why a launch is refused inside the dialog (nobody to send to), and launches nothing', async () => {
    const seq = await ok(
      t.request('/api/v1/sequences', {
        method: 'POST',
        token: ws.owner.token,
        json: { name: 'Unapproved', sender_connector_id: ws.connector.id, steps: [{ subject: 'Hi', body: 'Hello' }] },
      }),
      201,
    );
    await ok(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token: ws.owner.token }));
    await ok(
      t.request(`/api/v1/sequences/${seq.id}/approve`, {
        method: 'POST',
        token: ws.owner.token,
        json: { revision: 1 },
      }),
    );
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto(`/admin/sequences/${seq.id}`);
    await signInThroughForm(page, ws.owner.email, ws.owner.password);
    await page.getByRole('button', { name: 'Launch' }).click();
    const launch = page.getByRole('dialog', { name: 'Launch “Unapproved”' });
    // Nobody new, and nobody enrolled yet: the API refuses with what to do.
    await launch.getByLabel('Nobody new: only the leads already enrolled').check();
    await launch.getByRole('button', { name: 'Launch' }).click();
    await launch
      .locator('.dialog-error')
      .getByText(/enroll/i)
      .first()
      .waitFor();
    expect((await getSequence(t, ws.owner.token, seq.id)).status).not.toBe('active');
    expect(unexpectedProblems(problems, [409])).toEqual([]);
    await context.close();
  });
});
