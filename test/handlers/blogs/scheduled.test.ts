// Scheduled publishing: publish_at in the future makes the post `scheduled`; when its time comes the
// `blogs.publish-due` job publishes it exactly once (however many run at once), announced once; a
// rescheduled or unpublished post is left alone. With a test clock, and once with real time and jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { publishDuePosts } from '../../../src/handlers/blogs/publish.ts';
import { blogEnv, blogSlugOf, blogWorkspace, generatePost, page, type BlogWorkspace } from './blog-fixtures.ts';

let t: TestApp;
let site: Site;
let server: { close(): Promise<void> };
let ws: BlogWorkspace;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv, clock }));
  ws = await blogWorkspace(t, site.url);
  // An API key: a login's token would expire as the test clock moves on.
  ws.token = (await t.createKey(ws.token, 'scheduler test')).key;
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await t?.close();
});

const publish = (id: string, body?: unknown) =>
  json(
    t.request(`/api/v1/blog-posts/${id}/publish`, {
      method: 'POST',
      token: ws.token,
      ...(body !== undefined && { json: body }),
    }),
  );
const eventsOf = async (id: string) =>
  (await json(t.request('/api/v1/events?limit=100', { token: ws.token }))).data
    .filter((e: any) => e.data.id === id)
    .map((e: any) => e.type);

describe('scheduled publishing', () => {
  it('publishes a scheduled post once its time has come, exactly once across concurrent jobs', async () => {
    const { post } = await generatePost(t, ws.token);
    const at = new Date(clock.now().getTime() + 60 * 60_000).toISOString();
    const scheduled = await publish(post.id, { publish_at: at });
    expect(scheduled).toMatchObject({ status: 'scheduled', publish_at: at, published_at: null });
    expect(await publishDuePosts(t.deps)).toEqual([]);
    expect((await page(t, `/blog/${blogSlugOf(post)}/${post.slug}`)).status).toBe(404);

    offsetMs += 61 * 60_000;
    const runs = await Promise.all([publishDuePosts(t.deps), publishDuePosts(t.deps), publishDuePosts(t.deps)]);
    expect(runs.flat()).toEqual([post.id]);
    const now = await json(t.request(`/api/v1/blog-posts/${post.id}`, { token: ws.token }));
    expect(now).toMatchObject({ status: 'published', publish_at: null });
    expect((await page(t, `/blog/${blogSlugOf(post)}/${post.slug}`)).status).toBe(200);
    expect((await eventsOf(post.id)).filter((e: string) => e === 'blog_post.published')).toHaveLength(1);
  });

  it('leaves alone a post unpublished or rescheduled before its time', async () => {
    const { post } = await generatePost(t, ws.token, { topic: 'flight 12 night landing', length: 'short' });
    await publish(post.id, { publish_at: new Date(clock.now().getTime() + 5 * 60_000).toISOString() });
    await json(t.request(`/api/v1/blog-posts/${post.id}/unpublish`, { method: 'POST', token: ws.token }));
    const later = new Date(clock.now().getTime() + 30 * 60_000).toISOString();
    const { post: other } = await generatePost(t, ws.token, { topic: 'landing legs heaters', length: 'short' });
    await publish(other.id, { publish_at: new Date(clock.now().getTime() + 5 * 60_000).toISOString() });
    await publish(other.id, { publish_at: later });
    offsetMs += 10 * 60_000;
    expect(await publishDuePosts(t.deps)).toEqual([]);
    expect((await json(t.request(`/api/v1/blog-posts/${post.id}`, { token: ws.token }))).status).toBe('draft');
    expect((await json(t.request(`/api/v1/blog-posts/${other.id}`, { token: ws.token }))).status).toBe('scheduled');
    expect(await eventsOf(post.id)).toEqual(['blog_post.created', 'blog_post.scheduled', 'blog_post.unpublished']);
  });

  it('publishes through the delayed job at publish_at with no one calling', async () => {
    const { post } = await generatePost(t, ws.token, { topic: 'insured Roadrunner flights', length: 'short' });
    await publish(post.id, { publish_at: new Date(clock.now().getTime() + 1500).toISOString() });
    let status = 'scheduled';
    for (let i = 0; i < 40 && status !== 'published'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await json(t.request(`/api/v1/blog-posts/${post.id}`, { token: ws.token }))).status;
    }
    expect(status).toBe('published');
  });
});
