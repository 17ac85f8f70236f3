// The public registration page in Chromium: a person registers through the form (strict CSP, no script),
// a second registration of the address is refused, a full webinar says so, a post without the form's
// cookie is refused (403), and the page closes at the start.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { sharedBrowser, releaseBrowser, openPage, unexpectedProblems } from '../../admin/helpers/browser.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, sandboxMail, scheduleWebinar, sendMail, START } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: Workspace;
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  browser = await sharedBrowser();
  ws = await readyWorkspace(t, []);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

async function register(
  url: string,
  email: string,
  firstName = '',
): Promise<{ status: number; heading: string; problems: string[] }> {
  const { page, context, problems } = await openPage(browser, server.url);
  const form = await page.goto(url);
  expect(form?.headers()['content-security-policy']).toContain("default-src 'none'");
  await page.getByLabel('Email').fill(email);
  if (firstName) await page.getByLabel('First name').fill(firstName);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Register' }).click(),
  ]);
  await page.waitForLoadState();
  const heading = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  await context.close();
  return { status: answer.status(), heading, problems };
}

describe('the webinar registration page', () => {
  it('registers a person through the form, mails them, and refuses the same address again', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const first = await register(webinar.registration_url, 'Sam@Example.com', 'Sam');
    expect(first).toMatchObject({ status: 201, heading: "You're registered" });
    // The only 404 is the browser's own /favicon.ico request: the service serves none.
    expect(unexpectedProblems(first.problems, [404])).toEqual([]);
    expect(first.problems.every((p) => !p.startsWith('csp:'))).toBe(true);
    const list = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    expect(list.data.map((r: any) => [r.email, r.first_name, r.source])).toEqual([['sam@example.com', 'Sam', 'page']]);
    await sendMail(t);
    expect((await sandboxMail(t, ws.owner.workspaceId)).map((m) => m.to)).toEqual(['sam@example.com']);

    const again = await register(webinar.registration_url, 'sam@example.com');
    expect(again).toMatchObject({ status: 409, heading: 'Already registered' });
    expect(unexpectedProblems(again.problems, [404, 409])).toEqual([]);
  });

  it('says a full webinar is full', async () => {
    const webinar = await scheduleWebinar(t, ws, { capacity: 1 });
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'first@example.com' }]);
    const full = await register(webinar.registration_url, 'second@example.com');
    expect(full).toMatchObject({ status: 409, heading: 'Webinar full' });
  });

  it('refuses a post without the cookie the form set, and one with a token for another webinar', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const other = await scheduleWebinar(t, ws);
    const { page, context } = await openPage(browser, server.url);
    await page.goto(webinar.registration_url);
    await context.clearCookies();
    await page.getByLabel('Email').fill('forged@example.com');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Register' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Form expired');
    await context.close();

    // A cookie and token pair from another webinar's form does not open this one.
    const got = await fetch(other.registration_url);
    const cookie = (got.headers.get('set-cookie') as string).split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await got.text())?.[1] as string;
    const post = (url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, email: 'pair@example.com' }),
      });
    expect((await post(webinar.registration_url)).status).toBe(403);
    expect((await post(other.registration_url)).status).toBe(201);
    const list = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    expect(list.data).toEqual([]);
  });

  it('closes registration once the webinar has started', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const got = await fetch(webinar.registration_url);
    const cookie = (got.headers.get('set-cookie') as string).split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await got.text())?.[1] as string;
    now = new Date(new Date(START).getTime() + 60_000);
    const { page, context } = await openPage(browser, server.url);
    await page.goto(webinar.registration_url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Registration closed');
    expect(await page.getByRole('button', { name: 'Register' }).count()).toBe(0);
    await context.close();
    const late = await fetch(webinar.registration_url, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, email: 'late@example.com' }),
    });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('Registration closed');
  });

  it('answers 404 for an unknown registration page', async () => {
    expect((await fetch(`${server.url}/webinars/wbp_AAAAAAAAAAAAAAAAAAAAAA/register`)).status).toBe(404);
  });
});
