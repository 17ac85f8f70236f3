// What a workspace's public blog shows, read without a credential: the workspace by its slug, then only
// its published posts. Unknown workspaces, unknown posts and unpublished ones all read as absent.
import { findBlogPost, findBlogWorkspace, findPublishedPost, findWorkspaceSlug, listPublishedPosts, type BlogPostRow } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import { renderAtomFeed, renderSitemap } from './feed.ts';
import { renderMarkdown } from './markdown.ts';
import { renderIndexPage, renderNotFoundPage, renderPostPage, type BlogSite } from './pages.ts';
import { verifyPreview } from './preview-token.ts';
import { blogIndexUrl, blogPostUrl } from './wire.ts';

const FEED_ENTRIES = 50;
const SITEMAP_ENTRIES = 5000;

export type Rendered = { found: true; text: string } | { found: false; text: string };

async function siteOf(deps: Deps, workspaceSlug: string): Promise<{ site: BlogSite; workspaceId: string } | undefined> {
  const workspace = await findBlogWorkspace(deps.db.sql, workspaceSlug);
  if (!workspace) return undefined;
  const indexUrl = blogIndexUrl(deps.config.publicBaseUrl, workspace.slug);
  return { workspaceId: workspace.id, site: { name: workspace.name, slug: workspace.slug, indexUrl, feedUrl: `${indexUrl}/feed.xml` } };
}

const summary = (deps: Deps, site: BlogSite, p: BlogPostRow) => ({
  title: p.title,
  description: p.meta_description,
  url: blogPostUrl(deps.config.publicBaseUrl, site.slug, p.slug),
  publishedAt: p.published_at ?? p.updated_at,
});

export async function blogIndex(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, FEED_ENTRIES);
  return { found: true, text: renderIndexPage(found.site, posts.map((p) => summary(deps, found.site, p))) };
}

export async function blogPost(deps: Deps, workspaceSlug: string, postSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  const post = found && (await findPublishedPost(deps.db.sql, found.workspaceId, postSlug));
  if (!found || !post) return { found: false, text: renderNotFoundPage(found?.site ?? null) };
  return { found: true, text: renderPostPage(found.site, { ...summary(deps, found.site, post), bodyHtml: renderMarkdown(post.body_markdown) }) };
}

export async function blogFeed(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, FEED_ENTRIES);
  const entries = posts.map((p) => ({ ...summary(deps, found.site, p), updatedAt: p.updated_at, bodyHtml: renderMarkdown(p.body_markdown) }));
  return { found: true, text: renderAtomFeed(found.site, entries) };
}

export async function blogSitemap(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, SITEMAP_ENTRIES);
  return { found: true, text: renderSitemap(found.site, posts.map((p) => ({ url: blogPostUrl(deps.config.publicBaseUrl, found.site.slug, p.slug), updatedAt: p.updated_at }))) };
}

/** A post as its public page will show it, whatever its status, for the holder of a valid preview link. */
export async function blogPostPreview(deps: Deps, token: string): Promise<Rendered> {
  const target = verifyPreview(deps.auth.apiKeyPepper, token, deps.clock.now());
  const post = target && (await findBlogPost(deps.db.sql, target.workspaceId, target.postId));
  if (!post) return { found: false, text: renderNotFoundPage(null) };
  const { site } = (await siteOf(deps, await findWorkspaceSlug(deps.db.sql, post.workspace_id))) as { site: BlogSite };
  return { found: true, text: renderPostPage(site, { ...summary(deps, site, post), bodyHtml: renderMarkdown(post.body_markdown) }, { preview: true }) };
}
