import type { BlogPostPreviewPageInput, BlogPostPreviewPageOutput } from '../../generated/handlers.ts';
import { findBlogPost, findWorkspaceSlug } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { markdownRenderer } from './markdown.ts';
import { blogPageHeaders, blogPreviewHeaders, renderNotFoundPage, renderPostPage } from './page-html.ts';
import { verifyPreview } from './preview-token.ts';
import { siteOf, summary, type Rendered } from './public-site.ts';

/** A post as its public page will show it, whatever its status, for the holder of a valid preview link. */
export async function blogPostPreviewPage(deps: Deps, token: string): Promise<Rendered> {
  const target = verifyPreview(deps.auth.apiKeyPepper, token, deps.clock.now());
  const post = target && (await findBlogPost(deps.db.sql, target.workspaceId, target.postId));
  if (!post) return { found: false, text: renderNotFoundPage(null) };
  const found = await siteOf(deps, await findWorkspaceSlug(deps.db.sql, post.workspace_id));
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const { site } = found;
  const renderMarkdown = await markdownRenderer();
  return {
    found: true,
    text: renderPostPage(
      site,
      { ...summary(deps, site, post), bodyHtml: renderMarkdown(post.body_markdown) },
      { preview: true },
    ),
  };
}

export async function handle(input: BlogPostPreviewPageInput, ctx: HandlerContext): Promise<BlogPostPreviewPageOutput> {
  const r = await blogPostPreviewPage(ctx.deps, input.path.token);
  return r.found
    ? { status: 200, body: r.text, headers: blogPreviewHeaders }
    : { status: 404, body: r.text, headers: blogPageHeaders };
}
