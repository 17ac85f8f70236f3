// The public blog of a workspace as browsers, feed readers and search engines read it: the index, the Atom
// feed and the sitemap with absolute URLs and only published posts; the blog's CSP on every page; and the
// workspace boundary: another workspace's post ids are 404 on every operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { blogEnv, blogSlugOf, blogWorkspace, generatePost, page, topic, type BlogWorkspace } from './blog-fixtures.ts';

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let ws: BlogWorkspace;
let published: any;
let draft: any;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv }));
  ws = await blogWorkspace(t, site.url, 'Feed & Co <Rockets>');
  ({ post: published } = await generatePost(t, ws.token));
  published = await json(t.request(`/api/v1/blog-posts/${published.id}/publish`, { method: 'POST', token: ws.token }));
  ({ post: draft } = await generatePost(t, ws.token, { ...topic, topic: 'landing legs in the cold' }));
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await t?.close();
});

describe('the public blog', () => {
  it('derives the blog slug from the workspace name and suffixes a taken one', async () => {
    expect(blogSlugOf(published)).toBe('feed-and-co-rockets');
    const other = await t.signup({ workspace_name: 'Feed & Co <Rockets>' });
    const [row] = await t.db.sql`select slug from workspaces where id = ${other.workspaceId}`;
    expect(row.slug).toBe('feed-and-co-rockets-2');
  });

  it('serves an Atom feed of the published posts with absolute URLs and escaped text', async () => {
    const feed = await page(t, `/blog/${blogSlugOf(published)}/feed.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml');
    expect(feed.text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(feed.text).toContain('<title>Feed &amp; Co &lt;Rockets&gt;</title>');
    expect(feed.text).toContain(
      `<link rel="self" type="application/atom+xml" href="${server.url}/blog/feed-and-co-rockets/feed.xml"/>`,
    );
    expect(feed.text).toContain(`<id>${published.url}</id>`);
    expect(feed.text).toContain('<content type="html">&lt;p&gt;');
    expect(feed.text).not.toContain(draft.slug);
    expect(feed.text.match(/<entry>/g)).toHaveLength(1);
  });

  it('serves a sitemap of the index and the published posts', async () => {
    const map = await page(t, `/blog/${blogSlugOf(published)}/sitemap.xml`);
    expect(map.status).toBe(200);
    expect(map.headers.get('content-type')).toBe('application/xml');
    expect(map.text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(map.text).toContain(`<url><loc>${server.url}/blog/feed-and-co-rockets</loc></url>`);
    expect(map.text).toMatch(new RegExp(`<url><loc>${published.url}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT`));
    expect(map.text).not.toContain(draft.slug);
  });

  it('sends the blog CSP, which allows no script, on pages and the not-found page', async () => {
    for (const path of [
      `/blog/feed-and-co-rockets`,
      `/blog/feed-and-co-rockets/${published.slug}`,
      `/blog/feed-and-co-rockets/${draft.slug}`,
      '/blog/no-such-blog',
      '/blog/no-such-blog/a-post',
    ]) {
      const res = await page(t, path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(
        /^default-src 'none'; style-src 'self'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
      );
      expect(csp).not.toContain('script-src');
      expect(res.text).not.toMatch(/<script/i);
    }
    expect((await page(t, `/blog/feed-and-co-rockets/${draft.slug}`)).status).toBe(404);
    expect((await page(t, '/blog/no-such-blog')).status).toBe(404);
    expect((await page(t, '/blog/no-such-blog/feed.xml')).status).toBe(404);
  });

  it('lists the index newest first with Open Graph tags', async () => {
    const index = await page(t, '/blog/feed-and-co-rockets');
    expect(index.text).toContain('<meta property="og:type" content="website">');
    expect(index.text).toContain(`<link rel="canonical" href="${server.url}/blog/feed-and-co-rockets">`);
    expect(index.text).toContain('<h1>Feed &amp; Co &lt;Rockets&gt;</h1>');
  });
});

describe('caching of the public blog', () => {
  it('lets caches keep a page only while it is unchanged: ETag, no-cache, 304, and 404 once unpublished', async () => {
    const path = `/blog/feed-and-co-rockets/${published.slug}`;
    const first = await page(t, path);
    const etag = first.headers.get('etag') as string;
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

    const unchanged = await t.request(path, { headers: { 'if-none-match': `W/${etag}` } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    const feed = await page(t, '/blog/feed-and-co-rockets/feed.xml');
    expect(
      (
        await t.request('/blog/feed-and-co-rockets/feed.xml', {
          headers: { 'if-none-match': feed.headers.get('etag') as string },
        })
      ).status,
    ).toBe(304);

    await json(
      t.request(`/api/v1/blog-posts/${published.id}`, {
        method: 'PATCH',
        token: ws.token,
        json: { title: 'Reusable rockets, revised' },
      }),
    );
    const changed = await t.request(path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('Reusable rockets, revised');
    const newTag = changed.headers.get('etag') as string;
    expect(newTag).not.toBe(etag);

    await json(t.request(`/api/v1/blog-posts/${published.id}/unpublish`, { method: 'POST', token: ws.token }));
    expect((await t.request(path, { headers: { 'if-none-match': newTag } })).status).toBe(404);
    published = await json(
      t.request(`/api/v1/blog-posts/${published.id}/publish`, { method: 'POST', token: ws.token }),
    );
  });
});

describe('workspace isolation', () => {
  it("answers 404 for another workspace's post on every operation", async () => {
    const stranger = await t.signup();
    const id = published.id;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/blog-posts/${id}`],
      ['PATCH', `/api/v1/blog-posts/${id}`, { title: 'Mine now' }],
      ['POST', `/api/v1/blog-posts/${id}/publish`, {}],
      ['POST', `/api/v1/blog-posts/${id}/unpublish`],
      ['DELETE', `/api/v1/blog-posts/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(path, { method, token: stranger.token, ...(body !== undefined && { json: body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const list = await json(t.request('/api/v1/blog-posts', { token: stranger.token }));
    expect(list.data).toEqual([]);
    expect((await json(t.request(`/api/v1/blog-posts/${id}`, { token: ws.token }))).title).toBe(published.title);
  });

  it("generates only from the caller's own knowledge", async () => {
    const stranger = await t.signup();
    const started = await json(
      t.request('/api/v1/blog-posts/generate', {
        method: 'POST',
        token: stranger.token,
        json: { ...topic, knowledge_source_ids: [ws.sourceId] },
      }),
      202,
    );
    let run = started;
    while (!['succeeded', 'failed'].includes(run.status))
      run = await json(t.request(`/api/v1/agent-runs/${started.id}?wait_seconds=5`, { token: stranger.token }));
    expect(run.error?.code).toBe('no_knowledge');
  });
});
