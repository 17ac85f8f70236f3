// The blog lifecycle as an agent lives it over /mcp with the official SDK client, against a listening server
// with jobs running: generate_blog_post (202, an agent run), get_agent_run until it names the blog_post,
// get_blog_post, update, publish (the public page answers), unpublish, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { blogEnv, blogWorkspace, topic, type BlogWorkspace } from './blog-fixtures.ts';

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let ws: BlogWorkspace;
let client: Client;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: blogEnv }));
  ws = await blogWorkspace(t, site.url);
  const key = await t.createKey(ws.token, 'blog agent');
  client = new Client({ name: 'blog-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key.key}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await site?.close();
  await server?.close();
  await t?.close();
});

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
  return r.structuredContent ?? JSON.parse(r.content[0].text);
};

describe('the blog lifecycle over MCP', () => {
  it('lists the blog tools, with the public pages left out', async () => {
    const { tools } = await client.listTools();
    const names = new Set(tools.map((tool) => tool.name));
    for (const name of [
      'generate_blog_post',
      'get_blog_post',
      'list_blog_posts',
      'update_blog_post',
      'delete_blog_post',
      'publish_blog_post',
      'unpublish_blog_post',
    ])
      expect(names.has(name), name).toBe(true);
    for (const name of ['blog_index_page', 'blog_post_page', 'blog_feed', 'blog_sitemap'])
      expect(names.has(name), name).toBe(false);
    expect(tools.find((tool) => tool.name === 'generate_blog_post')?.description).toMatch(/get_agent_run/);
  });

  it('generates, reviews, edits, publishes, unpublishes and deletes a post', async () => {
    const started = await ok('generate_blog_post', topic);
    expect(started).toMatchObject({ status: 'queued', agent_slug: 'blog-post-writer' });
    let run = started;
    for (let i = 0; i < 20 && !['succeeded', 'failed'].includes(run.status); i++)
      run = await ok('get_agent_run', { run_id: started.id, wait_seconds: 5 });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const ref = run.output.resources.find((r: any) => r.type === 'blog_post');

    const post = await ok('get_blog_post', { post_id: ref.id });
    expect(post).toMatchObject({ status: 'draft', title: 'Reusable rockets for small satellite teams' });
    expect(post.sources.length).toBeGreaterThan(0);

    const edited = await ok('update_blog_post', {
      post_id: post.id,
      meta_description: 'Why reusable rockets suit small satellite teams.',
    });
    expect(edited.status).toBe('draft');
    const published = await ok('publish_blog_post', { post_id: post.id });
    expect(published.status).toBe('published');
    const shown = await fetch(published.url);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain(
      '<meta name="description" content="Why reusable rockets suit small satellite teams.">',
    );

    const listed = await ok('list_blog_posts', { status: 'published' });
    expect(listed.data.map((p: any) => p.id)).toEqual([post.id]);
    expect((await ok('unpublish_blog_post', { post_id: post.id })).status).toBe('draft');
    expect((await fetch(published.url)).status).toBe(404);
    expect(await ok('delete_blog_post', { post_id: post.id })).toEqual({ id: post.id, deleted: true });
    const missing = (await client.callTool({ name: 'get_blog_post', arguments: { post_id: post.id } })) as Result;
    expect(missing.isError).toBe(true);
  });
});
