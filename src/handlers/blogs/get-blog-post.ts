import type { GetBlogPostInput, GetBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { requirePost, viewPost } from './post-records.ts';
import { blogPostBody, type BlogPostView } from './wire.ts';

/** The post in any status, with a fresh preview link. */
export async function getBlogPost(deps: Deps, actor: Actor, postId: string): Promise<BlogPostView> {
  return viewPost(deps, deps.db.sql, await requirePost(deps.db.sql, actor.workspaceId, postId));
}

export async function handle(input: GetBlogPostInput, ctx: HandlerContext): Promise<GetBlogPostOutput> {
  return { status: 200, body: blogPostBody(await getBlogPost(ctx.deps, actorFrom(ctx), input.path.post_id)) };
}
