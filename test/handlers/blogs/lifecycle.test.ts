// The blog lifecycle over REST with jobs running: generate_blog_post writes a grounded draft from the
// ingested local site through the blog-post-writer agent; the draft is edited, published (its public page,
// the index, the feed and the sitemap show it), unpublished (404 again) and deleted, each change an event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { follow } from '../agents/agent-fixtures.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { blogEnv, blogSlugOf, blogWorkspace, generatePost, page, topic, type BlogWorkspace } from './blog-fixtures.ts';

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let ws: BlogWorkspace;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv }));
  ws = await blogWorkspace(t, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await t?.close();
});

describe('generate_blog_post', () => {
  it('writes a grounded draft from the knowledge, each section citing the pages it drew on', async () => {
    const { run, post } = await generatePost(t, ws.token);
    expect(run.steps.map((s) => s.name)).toEqual(['retrieve_knowledge', 'write_post', 'check_post', 'create_post']);
    expect(run.output?.resources).toEqual([{ type: 'blog_post', id: post.id }]);
    expect(post).toMatchObject({
      status: 'draft',
      title: 'Reusable rockets for small satellite teams',
      slug: 'reusable-rockets-for-small-satellite-teams',
      agent_run_id: run.id,
      published_at: null,
    });
    expect(post.meta_description.length).toBeGreaterThan(20);
    expect(post.meta_description.length).toBeLessThanOrEqual(160);
    expect(post.outline.length).toBeGreaterThanOrEqual(2);
    expect(post.body_markdown).toMatch(/Roadrunner|reusable/);
    expect(post.body_markdown).not.toMatch(/<[a-z]/i);
    for (const section of post.outline) {
      expect(post.body_markdown).toContain(`## ${section.heading}`);
      expect(section.chunk_ids.length).toBeGreaterThan(0);
    }
    const cited = new Set(post.sources.map((s: any) => s.chunk_id));
    for (const id of post.outline.flatMap((s: any) => s.chunk_ids)) expect(cited.has(id)).toBe(true);
    for (const source of post.sources) expect(source.url.startsWith(site.url)).toBe(true);
    expect(post.url).toBe(`${server.url}/blog/acme-rockets/${post.slug}`);
  });

  it('gives a second post on the same topic a free slug and writes the same text', async () => {
    const first = await json(t.request('/api/v1/blog-posts?status=draft&limit=1', { token: ws.token }));
    const { post } = await generatePost(t, ws.token);
    expect(post.slug).toMatch(/^reusable-rockets-for-small-satellite-teams-\d+$/);
    expect(post.body_markdown).toBe(first.data[0].body_markdown);
  });

  it('replays the run for a retried Idempotency-Key instead of starting another', async () => {
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const a = await json(
      t.request('/api/v1/blog-posts/generate', {
        method: 'POST',
        token: ws.token,
        headers,
        json: { ...topic, length: 'short' },
      }),
      202,
    );
    const b = await json(
      t.request('/api/v1/blog-posts/generate', {
        method: 'POST',
        token: ws.token,
        headers,
        json: { ...topic, length: 'short' },
      }),
      202,
    );
    expect(b.id).toBe(a.id);
    expect((await follow(t, ws.token, a.id)).status).toBe('succeeded');
  });

  it('fails the run with no_knowledge when the knowledge has nothing on the topic', async () => {
    const started = await json(
      t.request('/api/v1/blog-posts/generate', {
        method: 'POST',
        token: ws.token,
        json: { topic: 'zebra husbandry quarterly' },
      }),
      202,
    );
    const run = await follow(t, ws.token, started.id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'no_knowledge' } });
  });

  it('refuses input the contract does not allow', async () => {
    const res = await t.request('/api/v1/blog-posts/generate', {
      method: 'POST',
      token: ws.token,
      json: { topic: 'rockets', length: 'epic' },
    });
    expect(res.status).toBe(400);
  });
});

describe('the post lifecycle', () => {
  it('edits, publishes, shows publicly, unpublishes and deletes a post, recording each change', async () => {
    const { post } = await generatePost(t, ws.token, { ...topic, topic: 'night landings of the Roadrunner booster' });
    const blog = blogSlugOf(post);
    expect((await page(t, `/blog/${blog}/${post.slug}`)).status).toBe(404);

    const edited = await json(
      t.request(`/api/v1/blog-posts/${post.id}`, {
        method: 'PATCH',
        token: ws.token,
        json: { title: 'Landing at night', slug: 'landing-at-night' },
      }),
    );
    expect(edited).toMatchObject({ title: 'Landing at night', slug: 'landing-at-night', status: 'draft' });
    const published = await json(
      t.request(`/api/v1/blog-posts/${post.id}/publish`, { method: 'POST', token: ws.token }),
    );
    expect(published.status).toBe('published');
    expect(published.published_at).not.toBeNull();
    const again = await json(t.request(`/api/v1/blog-posts/${post.id}/publish`, { method: 'POST', token: ws.token }));
    expect(again.published_at).toBe(published.published_at);

    const shown = await page(t, `/blog/${blog}/landing-at-night`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shown.text).toContain('<title>Landing at night · Acme Rockets</title>');
    expect(shown.text).toContain(`<link rel="canonical" href="${server.url}/blog/${blog}/landing-at-night">`);
    expect(shown.text).toContain('<meta property="og:title" content="Landing at night · Acme Rockets">');
    expect(shown.text).toContain(`<meta property="og:url" content="${server.url}/blog/${blog}/landing-at-night">`);
    expect(shown.text).toMatch(/<meta name="description" content="[^"]{20,}">/);
    expect(shown.text).toMatch(/<h2>[^<]+<\/h2>/);
    expect((await page(t, `/blog/${blog}`)).text).toContain(`href="${server.url}/blog/${blog}/landing-at-night"`);

    const unpublished = await json(
      t.request(`/api/v1/blog-posts/${post.id}/unpublish`, { method: 'POST', token: ws.token }),
    );
    expect(unpublished).toMatchObject({ status: 'draft', published_at: null });
    const gone = await page(t, `/blog/${blog}/landing-at-night`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('Not found');
    expect((await page(t, `/blog/${blog}`)).text).not.toContain('landing-at-night');

    await json(t.request(`/api/v1/blog-posts/${post.id}`, { method: 'DELETE', token: ws.token }));
    expect((await t.request(`/api/v1/blog-posts/${post.id}`, { token: ws.token })).status).toBe(404);

    const events = await json(t.request('/api/v1/events?limit=100', { token: ws.token }));
    const mine = events.data
      .filter((e: any) => e.type.startsWith('blog_post.') && e.data.id === post.id)
      .map((e: any) => e.type);
    expect(mine).toEqual([
      'blog_post.created',
      'blog_post.updated',
      'blog_post.published',
      'blog_post.unpublished',
      'blog_post.deleted',
    ]);
  });

  it('refuses a slug another post of the workspace has with 409 slug_taken', async () => {
    const list = await json(t.request('/api/v1/blog-posts?limit=2', { token: ws.token }));
    const [a, b] = list.data;
    const res = await t.request(`/api/v1/blog-posts/${a.id}`, {
      method: 'PATCH',
      token: ws.token,
      json: { slug: b.slug },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('slug_taken');
  });

  it('lists posts newest first and by status', async () => {
    const all = await json(t.request('/api/v1/blog-posts?limit=100', { token: ws.token }));
    const created = all.data.map((p: any) => p.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const published = await json(t.request('/api/v1/blog-posts?status=published', { token: ws.token }));
    expect(published.data.every((p: any) => p.status === 'published')).toBe(true);
  });
});
