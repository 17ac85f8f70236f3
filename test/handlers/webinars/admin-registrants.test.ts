// Webinars → Registrants in the admin panel, in Chromium against the real app: the newest webinar's
// registrants (page and agent), the mail each was sent, who joined, the webinar chosen from the list, and a webinar with none.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from '../../admin/helpers/browser.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, joinLinkIn, sandboxMail, scheduleWebinar, sendMail } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: Workspace;
let empty: any;
let full: any;
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  browser = await sharedBrowser();
  ws = await readyWorkspace(t, [{ email: 'lead.one@example.com', first_name: 'Lena', last_name: 'One' }]);
  empty = await scheduleWebinar(t, ws, { title: 'Quiet session' });
  now = new Date(now.getTime() + 60_000);
  full = await scheduleWebinar(t, ws, { title: 'Busy session' });
  await addWebinarRegistrants(t, ws, full.id, [
    { lead_id: ws.leads[0].id },
    { email: 'walk.in@example.com', first_name: 'Wally' },
  ]);
  const got = await fetch(full.registration_url);
  const cookie = (got.headers.get('set-cookie') as string).split(';')[0];
  const csrf = /name="csrf" value="([^"]+)"/.exec(await got.text())?.[1] as string;
  const posted = await fetch(full.registration_url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, email: 'page.person@example.com', first_name: 'Paige' }),
  });
  expect(posted.status).toBe(201);
  await sendMail(t);
  const lena = (await sandboxMail(t, ws.owner.workspaceId)).find((m) => m.to === 'lead.one@example.com');
  expect((await fetch(joinLinkIn(lena?.text ?? ''), { redirect: 'manual' })).status).toBe(302);
}, 60_000);
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

const rows = (page: Page) => page.getByRole('region', { name: 'Registrants' }).locator('tbody tr');

describe('admin panel: webinar registrants', () => {
  it("lists the newest webinar's registrants with their source and who joined, and switches webinar", async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/webinars');
    await signInThroughForm(page, ws.owner.email, ws.owner.password);
    await page.getByRole('heading', { name: 'Webinar registrants', level: 1 }).waitFor();
    await page.getByText('3 registrants').waitFor();
    const byEmail = new Map<string, string[]>();
    for (const row of await rows(page).all()) {
      const cells = await row.locator('td').allTextContents();
      byEmail.set(cells[0], cells);
    }
    expect(byEmail.get('lead.one@example.com')?.slice(1, 4)).toEqual(['Lena One', 'Agent / API', 'Registered']);
    expect(byEmail.get('lead.one@example.com')?.[6]).not.toBe('Not yet');
    // Mail as the API lists it: the confirmation went out; the reminders wait for their time.
    expect(byEmail.get('lead.one@example.com')?.[5]).toMatch(
      /^Confirmation: sent.*24 h reminder: queued.*1 h reminder: queued$/,
    );
    expect(byEmail.get('page.person@example.com')?.slice(1, 3)).toEqual(['Paige', 'Registration page']);
    expect(byEmail.get('walk.in@example.com')?.[6]).toBe('Not yet');
    await page.screenshot({ path: screenshotPath('webinar-registrants') });

    await page.getByRole('combobox', { name: 'Webinar' }).selectOption(empty.id);
    await page.getByText('No registrants yet').waitFor();
    expect(new URL(page.url()).searchParams.get('webinar_id')).toBe(empty.id);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('opens the webinar a link names', async () => {
    const removed = await json(
      t.request(`/api/v1/webinars/${full.id}/registrants?status=registered`, { token: ws.owner.token }),
    );
    await json(
      t.request(`/api/v1/webinars/${full.id}/registrants/${removed.data[0].id}`, {
        method: 'DELETE',
        token: ws.owner.token,
      }),
    );
    const { page, context } = await openPage(browser, server.url);
    await page.goto(`/admin/webinars?webinar_id=${full.id}`);
    await signInThroughForm(page, ws.owner.email, ws.owner.password);
    await page.getByText('3 registrants').waitFor();
    await rows(page).getByText('Removed', { exact: true }).waitFor();
    await context.close();
  });
});
