import type { BlogPostPageInput, BlogPostPageOutput } from '../../generated/handlers.ts';
import { findPublishedPost } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { markdownRenderer } from './markdown.ts';
import { renderNotFoundPage, renderPostPage } from './page-html.ts';
import { answer, siteOf, summary, type Rendered } from './public-site.ts';

export async function blogPostPage(deps: Deps, workspaceSlug: string, postSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  const post = found && (await findPublishedPost(deps.db.sql, found.workspaceId, postSlug));
  if (!found || !post) return { found: false, text: renderNotFoundPage(found?.site ?? null) };
  const renderMarkdown = await markdownRenderer();
  return {
    found: true,
    text: renderPostPage(found.site, {
      ...summary(deps, found.site, post),
      bodyHtml: renderMarkdown(post.body_markdown),
    }),
  };
}

export async function handle(input: BlogPostPageInput, ctx: HandlerContext): Promise<BlogPostPageOutput> {
  return answer(
    await blogPostPage(ctx.deps, input.path.workspace_slug, input.path.post_slug),
    input.headers['if-none-match'],
  );
}
