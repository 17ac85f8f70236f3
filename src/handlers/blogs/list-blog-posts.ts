import { listBlogPostRows } from './blog-posts-data.ts';
import type { ListBlogPostsInput, ListBlogPostsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { viewPosts } from './post-records.ts';
import { blogPostBody, type BlogPostView } from './wire.ts';

export type ListBlogPostsRequest = ListBlogPostsInput['query'];

/** The workspace's posts in any status, newest first, each with its public and preview addresses. */
export function listBlogPosts(deps: Deps, actor: Actor, request: ListBlogPostsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_blog_posts', actor.workspaceId),
    fetch: async ({ limit, after }) =>
      viewPosts(
        deps,
        deps.db.sql,
        actor.workspaceId,
        await listBlogPostRows(deps.db.sql, actor.workspaceId, {
          statuses: request.status ?? [],
          before: after,
          limit,
        }),
      ),
    toItem: blogPostBody,
    position: (view: BlogPostView) => ({ at: view.row.created_at.toISOString(), id: view.row.id }),
  });
}

export async function handle(input: ListBlogPostsInput, ctx: HandlerContext): Promise<ListBlogPostsOutput> {
  return { status: 200, body: await listBlogPosts(ctx.deps, actorFrom(ctx), input.query) };
}
