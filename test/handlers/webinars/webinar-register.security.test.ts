// The registration form's CSRF protection in Chromium: the form open in several tabs of one browser stays
// valid in each (opening it again keeps the browser's cookie), while a post from another origin, or one
// pairing the browser's cookie with a token made for another browser, is still refused.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { sharedBrowser, releaseBrowser, openPage } from '../../admin/helpers/browser.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { scheduleWebinar } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: Workspace;
const now = new Date('2026-11-24T10:00:00Z');

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

async function submit(page: Page, email: string): Promise<{ status: number; heading: string }> {
  await page.getByLabel('Email').fill(email);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Register' }).click(),
  ]);
  await page.waitForLoadState();
  return { status: answer.status(), heading: (await page.getByRole('heading', { level: 1 }).textContent()) ?? '' };
}

const registered = async (webinarId: string) =>
  (await json(t.request(`/api/v1/webinars/${webinarId}/registrants`, { token: ws.owner.token }))).data
    .map((r: any) => r.email)
    .sort();

/** The cookie and form token a fresh visitor (no cookie) gets. */
async function freshPair(url: string, cookie?: string): Promise<{ cookie: string; csrf: string }> {
  const got = await fetch(url, { headers: cookie ? { cookie } : {} });
  return {
    cookie: (got.headers.get('set-cookie') as string).split(';')[0],
    csrf: /name="csrf" value="([^"]+)"/.exec(await got.text())?.[1] as string,
  };
}

describe('the registration form CSRF token', () => {
  it('registers from the first of two tabs opened in turn, and from the second too', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const { page: first, context } = await openPage(browser, server.url);
    await first.goto(webinar.registration_url);
    const second = await context.newPage();
    await second.goto(webinar.registration_url);
    expect(await submit(first, 'tab.one@example.com')).toEqual({ status: 201, heading: "You're registered" });
    expect(await submit(second, 'tab.two@example.com')).toEqual({ status: 201, heading: "You're registered" });
    await context.close();
    expect(await registered(webinar.id)).toEqual(['tab.one@example.com', 'tab.two@example.com']);
  });

  it('keeps a valid cookie when the form is opened again, and replaces a malformed one', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const a = await freshPair(webinar.registration_url);
    const b = await freshPair(webinar.registration_url, a.cookie);
    expect(b.cookie).toBe(a.cookie);
    expect(b.csrf).toBe(a.csrf);
    const c = await freshPair(webinar.registration_url, 'webinar_csrf=short');
    expect(c.cookie).not.toBe('webinar_csrf=short');
    expect(c.cookie).toMatch(/^webinar_csrf=[\w-]{24}$/);
  });

  it('refuses a form posted from another origin to a browser that has the form open', async () => {
    const webinar = await scheduleWebinar(t, ws);
    const { page, context } = await openPage(browser, server.url);
    await page.goto(webinar.registration_url);
    // The attacker's page carries a token the attacker got for their own cookie.
    const attacker = await freshPair(webinar.registration_url);
    const evil = await context.newPage();
    await evil.route('http://attacker.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<h1>Win a prize</h1><form method="post" action="${webinar.registration_url}"><input type="hidden" name="csrf" value="${attacker.csrf}"><input type="hidden" name="email" value="victim@example.com"><button>Go</button></form>`,
      }),
    );
    await evil.goto('http://attacker.test/prize');
    const [answer] = await Promise.all([
      evil.waitForResponse((r) => r.request().method() === 'POST'),
      evil.getByRole('button', { name: 'Go' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    await context.close();
    expect(await registered(webinar.id)).toEqual([]);
  });

  it("refuses a browser's own cookie with a token made for another browser's cookie", async () => {
    const webinar = await scheduleWebinar(t, ws);
    const victim = await freshPair(webinar.registration_url);
    const attacker = await freshPair(webinar.registration_url);
    const post = (cookie: string, csrf: string) =>
      fetch(webinar.registration_url, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, email: 'mixed@example.com' }),
      });
    expect((await post(victim.cookie, attacker.csrf)).status).toBe(403);
    // A token whose nonce matches the cookie but whose signature is not the server's.
    const nonce = victim.cookie.split('=')[1];
    expect((await post(victim.cookie, `${nonce}.${'A'.repeat(22)}`)).status).toBe(403);
    expect(await registered(webinar.id)).toEqual([]);
    expect((await post(victim.cookie, victim.csrf)).status).toBe(201);
  });
});
