// What a workspace's public blog shares (pages for browsers, the feed for feed readers, the sitemap for
// search engines), read without a credential: the workspace by its slug, then only its published posts.
// Unknown workspaces, unknown posts and unpublished ones all read as absent. Each page sends the blog's own
// CSP (no script at all).
import { findBlogWorkspace, type BlogPostRow } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import { etagMatches, etagOf } from '../../http/etag.ts';
import { blogPageHeaders, type BlogSite } from './page-html.ts';
import { blogIndexUrl, blogPostUrl } from './wire.ts';

/** The posts the index and the feed list, newest first. */
export const FEED_ENTRIES = 50;

export type Rendered = { found: true; text: string } | { found: false; text: string };

export async function siteOf(
  deps: Deps,
  workspaceSlug: string,
): Promise<{ site: BlogSite; workspaceId: string } | undefined> {
  const workspace = await findBlogWorkspace(deps.db.sql, workspaceSlug);
  if (!workspace) return undefined;
  const indexUrl = blogIndexUrl(deps.config.publicBaseUrl, workspace.slug);
  return {
    workspaceId: workspace.id,
    site: { name: workspace.name, slug: workspace.slug, indexUrl, feedUrl: `${indexUrl}/feed.xml` },
  };
}

export const summary = (deps: Deps, site: BlogSite, p: BlogPostRow) => ({
  title: p.title,
  description: p.meta_description,
  url: blogPostUrl(deps.config.publicBaseUrl, site.slug, p.slug),
  publishedAt: p.published_at ?? p.updated_at,
});

// Every request revalidates (no-cache), so an unpublished post leaves caches at once; an unchanged page
// costs the reader a 304 without a body.
export function answer(r: Rendered, ifNoneMatch: string | undefined) {
  const headers = { ...blogPageHeaders, ETag: etagOf(r.text) };
  if (!r.found) return { status: 404 as const, body: r.text, headers };
  if (etagMatches(ifNoneMatch, headers.ETag)) return { status: 304 as const, headers };
  return { status: 200 as const, body: r.text, headers };
}
