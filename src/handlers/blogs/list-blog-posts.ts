import { listBlogPostRows, type BlogPostStatus } from './blog-posts-data.ts';
import type { ListBlogPostsInput, ListBlogPostsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { viewPosts } from './post-records.ts';
import { blogPostBody, type BlogPostView } from './wire.ts';

const statuses: readonly BlogPostStatus[] = ['draft', 'scheduled', 'published'];

export async function listBlogPosts(deps: Deps, actor: Actor, page: { statuses: BlogPostStatus[]; before?: { at: string; id: string }; limit: number }): Promise<BlogPostView[]> {
  return viewPosts(deps, deps.db.sql, actor.workspaceId, await listBlogPostRows(deps.db.sql, actor.workspaceId, page));
}

export async function handle(input: ListBlogPostsInput, ctx: HandlerContext): Promise<ListBlogPostsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_blog_posts', actor.workspaceId);
  const views = await listBlogPosts(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, blogPostBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}
