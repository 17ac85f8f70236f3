// A hostile post renders inert in Chromium: script tags, event-handler attributes, javascript: and data:
// links, raw HTML and an iframe, in the body, the title and the meta description. Nothing executes (a
// `window.__pwned` flag is never set, no dialog opens), no link is javascript:, no iframe, form or
// event-handler attribute reaches the DOM, and the page and the feed come with the blog's CSP.
import { parseHTML } from 'linkedom';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { sharedBrowser, releaseBrowser } from '../../admin/helpers/browser.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { blogEnv, blogWorkspace, generatePost } from './blog-fixtures.ts';

const hostile = `Intro <script>window.__pwned = 'script'</script> text.

<img src="x" onerror="window.__pwned = 'onerror'">

<iframe src="javascript:window.top.__pwned='iframe'"></iframe>

<a href="https://example.com" onclick="window.__pwned = 'onclick'">raw anchor</a>

<svg onload="window.__pwned='svg'"><circle r="4"/></svg>

<form action="https://evil.example"><button>Go</button></form>

[a javascript link](javascript:window.__pwned='link') [mixed case](JaVaScRiPt:alert(1)) [entity](jav&#x61;script:alert(1)) [data](data:text/html,<script>alert(1)</script>)

![pixel](javascript:alert(1)) ![ok](https://example.com/ok.png)

[a fine link](https://example.com/fine "Fine")

<style>body{display:none}</style>
`;

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let post: any;

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), sharedBrowser()]);
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv }));
  const ws = await blogWorkspace(t, site.url, 'Hostile <script>window.__pwned="name"</script>');
  ({ post } = await generatePost(t, ws.token, { topic: 'reusable rockets', length: 'short' }));
  await json(
    t.request(`/api/v1/blog-posts/${post.id}`, {
      method: 'PATCH',
      token: ws.token,
      json: {
        title: `<script>window.__pwned='title'</script><img src=x onerror="window.__pwned='t'">`,
        meta_description: `"><script>window.__pwned='meta'</script>`,
        body_markdown: hostile,
      },
    }),
  );
  post = await json(t.request(`/api/v1/blog-posts/${post.id}/publish`, { method: 'POST', token: ws.token }));
});
afterAll(async () => {
  await releaseBrowser(browser);
  await site?.close();
  await server?.close();
  await t?.close();
});

describe('a hostile post in Chromium', () => {
  it('renders inert on its page and on the index, under the blog CSP', async () => {
    for (const url of [post.url, new URL(post.url).href.replace(/\/[^/]+$/, '')]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const response = await page.goto(url, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'self';/);
      await page.waitForTimeout(300);
      const seen = await page.evaluate(() => {
        const all = [...document.querySelectorAll('*')];
        return {
          pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
          scripts: document.scripts.length,
          iframes: document.querySelectorAll('iframe, frame, object, embed, form, svg, style:not(head style)').length,
          handlers: all.flatMap((el) =>
            [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
          ),
          hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
          images: [...document.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? ''),
          text: document.body.innerText,
          visible: getComputedStyle(document.body).display !== 'none',
        };
      });
      expect(seen.pwned, url).toBeNull();
      expect(dialogs).toEqual([]);
      expect(seen.scripts).toBe(0);
      expect(seen.iframes).toBe(0);
      expect(seen.handlers).toEqual([]);
      expect(seen.visible).toBe(true);
      for (const href of seen.hrefs) expect(href, href).toMatch(/^https?:\/\//);
      for (const src of seen.images) expect(src).toMatch(/^https:\/\//);
      if (url === post.url) {
        // Raw HTML shows as text, and the Markdown that is fine still works.
        expect(seen.text).toContain("<script>window.__pwned = 'script'</script>");
        expect(seen.text).toContain('<iframe src=');
        expect(seen.hrefs).toContain('https://example.com/fine');
        expect(seen.images).toEqual(['https://example.com/ok.png']);
        expect(seen.text).toContain("<script>window.__pwned='title'</script>");
      }
      await context.close();
    }
  });

  it('escapes the hostile text in the head and in the feed', async () => {
    const html = await (await t.request(new URL(post.url).pathname)).text();
    const { document } = parseHTML(html);
    expect(document.querySelectorAll('script, iframe, svg, form, img[src="x"]').length).toBe(0);
    expect(
      [...document.querySelectorAll('*')].flatMap((el: Element) =>
        [...el.attributes].filter((a) => a.name.startsWith('on')),
      ),
    ).toEqual([]);
    expect(html).toContain('<meta name="description" content="&quot;&gt;&lt;script&gt;');
    const feed = await t.request(`${new URL(post.url).pathname.replace(/\/[^/]+$/, '')}/feed.xml`);
    const xml = await feed.text();
    expect(xml).not.toMatch(/<(script|iframe)\b|href=&quot;javascript/i);
    expect(xml).toContain('&lt;script&gt;');
  });
});
