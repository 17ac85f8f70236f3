// Content → Blog posts in the admin panel, in Chromium against the real app: the list, then one draft's
// preview (its search card, outline with cited pages, and the page itself in a sandboxed frame from its
// signed preview link, inert even for a hostile body), with no console error or CSP violation. And the
// preview link itself: it works without a credential until it expires, and a tampered one is 404.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  signInThroughForm,
  unexpectedProblems,
} from '../../admin/helpers/browser.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { blogEnv, generatePost, page } from './blog-fixtures.ts';
import { ingestSite } from '../agents/agent-fixtures.ts';

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let owner: Awaited<ReturnType<TestApp['signup']>>;
let post: any;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), sharedBrowser()]);
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv, clock }));
  owner = await t.signup({ workspace_name: 'Preview Rockets' });
  await ingestSite(t, owner.token, site.url);
  ({ post } = await generatePost(t, owner.token, { topic: 'reusable rockets', length: 'short' }));
  const body = `${post.body_markdown}\n\n<script>window.top.__pwned = 1</script> [x](javascript:window.top.__pwned=2)\n`;
  post = await json(
    t.request(`/api/v1/blog-posts/${post.id}`, { method: 'PATCH', token: owner.token, json: { body_markdown: body } }),
  );
});
afterAll(async () => {
  await releaseBrowser(browser);
  await site?.close();
  await server?.close();
  await t?.close();
});

describe('admin panel: blog post preview', () => {
  it('lists the posts and previews a draft as the blog will show it', async () => {
    const { page: tab, context, problems } = await openPage(browser, server.url);
    await tab.goto('/admin/blog-posts');
    await signInThroughForm(tab, owner.email, owner.password);
    await tab.getByRole('heading', { name: 'Blog posts', level: 1 }).waitFor();
    const row = tab.getByRole('region', { name: 'Blog posts' }).locator('tbody tr').first();
    await row.getByText('Draft', { exact: true }).waitFor();
    await row.getByRole('link', { name: post.title }).click();

    await tab.getByRole('heading', { name: 'Post preview', level: 1 }).waitFor();
    const card = tab.getByRole('group', { name: 'Search and social preview' });
    await card.getByText(post.meta_description).waitFor();
    await card.getByText(post.url).waitFor();
    const outline = tab.getByRole('list', { name: 'Outline' });
    for (const section of post.outline) await outline.getByText(section.heading, { exact: true }).waitFor();
    expect(await outline.getByText(`Source: ${site.url}`, { exact: false }).count()).toBeGreaterThan(0);

    const frame = tab.frameLocator('iframe.blog-preview-frame');
    await frame.getByRole('heading', { name: post.title, level: 1 }).waitFor();
    await frame.getByText('this post is not published').waitFor();
    await frame.getByText('<script>window.top.__pwned = 1</script>').waitFor();
    expect(await tab.locator('iframe.blog-preview-frame').getAttribute('sandbox')).toBe('');
    expect(await tab.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    const hrefs = await frame.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('serves the preview link without a credential, for one hour, and refuses a tampered one', async () => {
    const path = new URL(post.preview_url).pathname;
    const shown = await page(t, path);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(shown.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(shown.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const [payload, mac] = path.split('/').pop()!.split('.');
    // The first character: all its bits count (replacing the last two could leave the same bytes, 1 time in 256).
    const tampered = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect((await page(t, `/blog-preview/${payload}.${tampered}`)).status).toBe(404);
    // The same bytes spelled otherwise (the last character's unused bits) are not the link either.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = mac.slice(0, -1) + alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1];
    expect((await page(t, `/blog-preview/${payload}.${respelled}`)).status).toBe(404);
    offsetMs += 61 * 60_000;
    expect((await page(t, path)).status).toBe(404);
  });
});
