import type { BlogSitemapInput, BlogSitemapOutput } from '../../generated/handlers.ts';
import { listPublishedPosts } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { renderSitemap } from './feed-xml.ts';
import { renderNotFoundPage } from './page-html.ts';
import { answer, siteOf, type Rendered } from './public-site.ts';
import { blogPostUrl } from './wire.ts';

const SITEMAP_ENTRIES = 5000;

export async function blogSitemap(deps: Deps, workspaceSlug: string): Promise<Rendered> {
  const found = await siteOf(deps, workspaceSlug);
  if (!found) return { found: false, text: renderNotFoundPage(null) };
  const posts = await listPublishedPosts(deps.db.sql, found.workspaceId, SITEMAP_ENTRIES);
  return {
    found: true,
    text: renderSitemap(
      found.site,
      posts.map((p) => ({
        url: blogPostUrl(deps.config.publicBaseUrl, found.site.slug, p.slug),
        updatedAt: p.updated_at,
      })),
    ),
  };
}

export async function handle(input: BlogSitemapInput, ctx: HandlerContext): Promise<BlogSitemapOutput> {
  return answer(await blogSitemap(ctx.deps, input.path.workspace_slug), input.headers['if-none-match']);
}
