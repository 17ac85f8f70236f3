// A workspace with the local test site ingested, and helpers to generate a blog post through
// generate_blog_post and follow its agent run (as an agent would), then read the public blog.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { follow, ingestSite, type Run } from '../agents/agent-fixtures.ts';
import { json } from '../sequences/sequence-fixtures.ts';

export const blogEnv = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  KNOWLEDGE_PAGE_TIMEOUT_MS: '15000',
};

export const topic = {
  topic: 'reusable rockets for small satellite teams',
  keywords: ['landing', 'launch'],
  length: 'medium',
};

export interface BlogWorkspace {
  token: string;
  workspaceId: string;
  sourceId: string;
}

export async function blogWorkspace(t: TestApp, siteUrl: string, name = 'Acme Rockets'): Promise<BlogWorkspace> {
  const owner = await t.signup({ workspace_name: name });
  const sourceId = await ingestSite(t, owner.token, siteUrl);
  return { token: owner.token, workspaceId: owner.workspaceId, sourceId };
}

export const postOf = (run: Run) => run.output?.resources.find((r) => r.type === 'blog_post')?.id as string;

/** generate_blog_post, followed to the end; returns the succeeded run and its post. */
export async function generatePost(
  t: TestApp,
  token: string,
  input: Record<string, unknown> = topic,
): Promise<{ run: Run; post: any }> {
  const started = await json<Run>(
    t.request('/api/v1/blog-posts/generate', { method: 'POST', token, json: input }),
    202,
  );
  const run = await follow(t, token, started.id);
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  return { run, post: await json(t.request(`/api/v1/blog-posts/${postOf(run)}`, { token })) };
}

/** The workspace's blog slug, as the post's public URL carries it. */
export const blogSlugOf = (post: { url: string }) => new URL(post.url).pathname.split('/')[2];

export async function page(t: TestApp, path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await t.request(path);
  return { status: res.status, text: await res.text(), headers: res.headers };
}
