// The pages the service renders itself, in Chromium at 390 px (a phone): the sandbox consent page, the OAuth
// callback, the unsubscribe page and its confirmation, the webinar registration page, the blog's index and a
// post. Each loads no script, links the one shared stylesheet (and it applies), comes with a CSP that allows
// no inline script and no framing, names the workspace (the sender, the organiser) at the top, and fits the
// width without scrolling sideways. A screenshot of each goes to test-output/public/.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { blogEnv, generatePost } from '../handlers/blogs/blog-fixtures.ts';
import { ingestSite } from '../handlers/agents/agent-fixtures.ts';
import { mimeHeader, sandboxRaw } from '../handlers/replies/reply-fixtures.ts';
import { scheduleWebinar } from '../handlers/webinars/webinar-fixtures.ts';
import { sharedBrowser, releaseBrowser, openPage, unexpectedProblems } from '../admin/helpers/browser.ts';
import { ok, pendingSequence, sendingWorkspace, type SendingWorkspace } from '../admin/helpers/sequences.ts';

const WORKSPACE = 'Analytical Engines';
const outputDir = fileURLToPath(new URL('../../test-output/public/', import.meta.url));

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: SendingWorkspace;
let unsubscribeLink: string;
let webinar: any;
let post: any;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'work',
    env: { ...blogEnv, SEQUENCE_SEND_SPACING_MS: '0' },
  }));
  browser = await sharedBrowser();
  ws = await sendingWorkspace(t, [{ email: 'ada@example.com', first_name: 'Ada' }]);
  const token = ws.owner.token;

  const seq = await pendingSequence(t, ws, 'Launch news');
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: seq.revision } }),
  );
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token,
      json: { enroll: { lead_ids: [ws.leads[0].id] } },
    }),
  );
  for (let pass = 0; pass < 50 && !(await sandboxRaw(t, ws.owner.workspaceId)).length; pass++) {
    for (const m of await dispatchDue(t.deps)) await sendFromMailbox(t.deps, m);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [raw] = await sandboxRaw(t, ws.owner.workspaceId);
  unsubscribeLink = /^<([^>]+)>$/.exec(mimeHeader(raw, 'list-unsubscribe') ?? '')?.[1] as string;

  // A week after the real clock (the app runs on it here), so the registration is open.
  const startAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  webinar = await scheduleWebinar(t, ws, { title: 'Engines at scale', start_at: startAt });

  await ingestSite(t, token, site.url);
  ({ post } = await generatePost(t, token, { topic: 'reusable rockets', length: 'short' }));
  post = await ok(t.request(`/api/v1/blog-posts/${post.id}/publish`, { method: 'POST', token }));
}, 180_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await site?.close();
  await server?.close();
  await t?.close();
});

interface Loaded {
  page: Page;
  csp: string;
  problems: string[];
  close(): Promise<void>;
}

const isDocument = (r: Response) =>
  r.request().resourceType() === 'document' && (r.status() < 300 || r.status() >= 400);

/** Does `action` in the page and returns it once the document it leads to has loaded, with that one's CSP. */
async function follow(loaded: Omit<Loaded, 'csp'>, action: (page: Page) => Promise<unknown>): Promise<Loaded> {
  const [answer] = await Promise.all([loaded.page.waitForResponse(isDocument), action(loaded.page)]);
  await loaded.page.waitForLoadState('load');
  return { ...loaded, csp: answer.headers()['content-security-policy'] ?? '' };
}

/** Opens a URL at 390 px wide, as a phone would. */
async function open(url: string): Promise<Loaded> {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 390, height: 844 });
  return follow({ page, problems, close: () => context.close() }, (p) => p.goto(url));
}

/** Everything every public page must be; `name` is the workspace the page must show at the top. */
async function expectPublicPage(loaded: Loaded, shot: string, name: string | null): Promise<void> {
  const { page, csp } = loaded;
  expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
  expect(csp).not.toMatch(/script-src|unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("style-src 'self'");
  const seen = await page.evaluate(() => ({
    scripts: document.scripts.length,
    inlineStyles: document.querySelectorAll('style, [style]').length,
    sheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')),
    // page.css's radial background and card only exist when the stylesheet applied.
    styled: getComputedStyle(document.body).backgroundImage.includes('gradient'),
    brand: document.querySelector('.page-brand')?.textContent?.trim() ?? '',
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(seen).toMatchObject({ scripts: 0, inlineStyles: 0, sheets: ['/page.css'], styled: true });
  if (name) expect(seen.brand).toContain(name);
  expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth);
  // The only 404 is the browser's own /favicon.ico request: the service serves none.
  expect(unexpectedProblems(loaded.problems, [404])).toEqual([]);
  mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: `${outputDir}${shot}.png`, fullPage: true });
}

describe('the public pages at 390 px', () => {
  it('the sandbox consent page and the OAuth callback: styled, no script, marked sandbox, naming the workspace', async () => {
    const started = await ok(
      t.request('/api/v1/connectors/oauth', { method: 'POST', token: ws.owner.token, json: { provider: 'gmail' } }),
      201,
    );
    const consent = await open(started.authorization_url);
    expect((await consent.page.locator('.sandbox-label').textContent())?.trim()).toBe('sandbox');
    expect(await consent.page.locator('main').innerText()).toContain(`for the workspace ${WORKSPACE} wants to access`);
    await expectPublicPage(consent, 'sandbox-consent', null);
    const callback = await follow(consent, (page) => page.getByRole('button', { name: 'Allow' }).click());
    expect((await callback.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe('Connected');
    await expectPublicPage(callback, 'oauth-callback', WORKSPACE);
    await callback.close();
  });

  it('the unsubscribe page names the sender, and so does its confirmation', async () => {
    const loaded = await open(unsubscribeLink);
    const text = await loaded.page.locator('main').innerText();
    expect(text).toContain(`You will no longer receive emails from ${WORKSPACE} (sales@sandbox.example)`);
    await expectPublicPage(loaded, 'unsubscribe', WORKSPACE);
    const done = await follow(loaded, (page) => page.getByRole('button', { name: 'Unsubscribe' }).click());
    expect((await done.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe('Unsubscribed');
    expect(await done.page.locator('main').innerText()).toContain(
      `you will no longer receive emails from ${WORKSPACE} (sales@sandbox.example) at ada@example.com`,
    );
    await expectPublicPage(done, 'unsubscribed', WORKSPACE);
    await done.close();
  });

  it('the webinar registration page names the organiser and works as a plain form', async () => {
    const loaded = await open(webinar.registration_url);
    expect((await loaded.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe('Engines at scale');
    await expectPublicPage(loaded, 'webinar-registration', WORKSPACE);
    await loaded.page.getByLabel('Email').fill('grace@example.com');
    const registered = await follow(loaded, (page) => page.getByRole('button', { name: 'Register' }).click());
    expect((await registered.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe("You're registered");
    await expectPublicPage(registered, 'webinar-registered', WORKSPACE);
    await registered.close();
  });

  it('the blog index and a post carry the workspace’s name and the shared stylesheet', async () => {
    const index = await open(post.url.replace(/\/[^/]+$/, ''));
    expect((await index.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe(WORKSPACE);
    await expectPublicPage(index, 'blog-index', WORKSPACE);
    await index.close();
    const article = await open(post.url);
    expect((await article.page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe(post.title);
    await expectPublicPage(article, 'blog-post', WORKSPACE);
    await article.close();
  });

  it('the blog preview is styled inside a sandboxed iframe of this origin, as the admin panel shows it', async () => {
    const { page, context } = await openPage(browser, server.url);
    await page.goto('/page.css');
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', '');
      frame.src = src;
      document.body.append(frame);
    }, post.preview_url);
    await expect.poll(() => page.frames().some((f) => f.url() === post.preview_url)).toBe(true);
    const frame = page.frames().find((f) => f.url() === post.preview_url);
    await frame?.waitForLoadState('load');
    await expect
      .poll(() => frame?.evaluate(() => getComputedStyle(document.body).backgroundImage.includes('gradient')))
      .toBe(true);
    await context.close();
  });
});
