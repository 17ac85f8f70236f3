import type { BlogIndexPageInput, BlogIndexPageOutput } from '../../generated/handlers.ts';
import { listPublishedPosts } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { renderIndexPage, renderNotFoundPage } from './page-html.ts';
import { answer, FEED_ENTRIES, siteOf, summary, type Rendered } from './public-site.ts';

export async function blogIndexPage(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, FEED_ENTRIES);
  return {
    found: true,
    text: renderIndexPage(
      found.site,
      posts.map((p) => summary(deps, found.site, p)),
    ),
  };
}

export async function handle(input: BlogIndexPageInput, ctx: HandlerContext): Promise<BlogIndexPageOutput> {
  return answer(await blogIndexPage(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}
