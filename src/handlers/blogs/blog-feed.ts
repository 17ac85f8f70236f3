import type { BlogFeedInput, BlogFeedOutput } from '../../generated/handlers.ts';
import { listPublishedPosts } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { renderAtomFeed } from './feed-xml.ts';
import { markdownRenderer } from './markdown.ts';
import { renderNotFoundPage } from './page-html.ts';
import { answer, FEED_ENTRIES, siteOf, summary, type Rendered } from './public-site.ts';

export async function blogFeed(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, FEED_ENTRIES);
  const renderMarkdown = await markdownRenderer();
  const entries = posts.map((p) => ({
    ...summary(deps, found.site, p),
    updatedAt: p.updated_at,
    bodyHtml: renderMarkdown(p.body_markdown),
  }));
  return { found: true, text: renderAtomFeed(found.site, entries) };
}

export async function handle(input: BlogFeedInput, ctx: HandlerContext): Promise<BlogFeedOutput> {
  return answer(await blogFeed(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}
