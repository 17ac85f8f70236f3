// A workspace's public blog: pages for browsers, the feed for feed readers, the sitemap for search
// engines. No credential; each page sends the blog's own CSP (no script at all).
import type {
  BlogFeedInput,
  BlogFeedOutput,
  BlogIndexPageInput,
  BlogIndexPageOutput,
  BlogPostPageInput,
  BlogPostPageOutput,
  BlogPostPreviewPageInput,
  BlogPostPreviewPageOutput,
  BlogSitemapInput,
  BlogSitemapOutput,
} from '../../generated/handlers.ts';
import { etagMatches, etagOf } from '../../http/etag.ts';
import { blogPageHeaders, blogPreviewHeaders } from './pages.ts';
import { blogFeed as feed, blogIndex, blogPost, blogPostPreview, blogSitemap as sitemap, type Rendered } from './public-logic.ts';
import type { HandlerContext } from '../context.ts';

// Every request revalidates (no-cache), so an unpublished post leaves caches at once; an unchanged page
// costs the reader a 304 without a body.
function answer(r: Rendered, ifNoneMatch: string | undefined) {
  const headers = { ...blogPageHeaders, ETag: etagOf(r.text) };
  if (!r.found) return { status: 404 as const, body: r.text, headers };
  if (etagMatches(ifNoneMatch, headers.ETag)) return { status: 304 as const, headers };
  return { status: 200 as const, body: r.text, headers };
}

export async function blogIndexPage(input: BlogIndexPageInput, ctx: HandlerContext): Promise<BlogIndexPageOutput> {
  return answer(await blogIndex(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}

export async function blogPostPage(input: BlogPostPageInput, ctx: HandlerContext): Promise<BlogPostPageOutput> {
  return answer(await blogPost(ctx.deps, input.path.workspace_slug, input.path.post_slug), input.headers['if-none-match']);
}

export async function blogFeed(input: BlogFeedInput, ctx: HandlerContext): Promise<BlogFeedOutput> {
  return answer(await feed(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}

export async function blogSitemap(input: BlogSitemapInput, ctx: HandlerContext): Promise<BlogSitemapOutput> {
  return answer(await sitemap(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}

export async function blogPostPreviewPage(input: BlogPostPreviewPageInput, ctx: HandlerContext): Promise<BlogPostPreviewPageOutput> {
  const r = await blogPostPreview(ctx.deps, input.path.token);
  return r.found ? { status: 200, body: r.text, headers: blogPreviewHeaders } : { status: 404, body: r.text, headers: blogPageHeaders };
}
