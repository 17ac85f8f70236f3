import { deleteBlogPostRow } from './blog-posts-data.ts';
import type { DeleteBlogPostInput, DeleteBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requirePost, viewPost } from './post-records.ts';
import { blogPostEventData } from './wire.ts';

export async function deleteBlogPost(deps: Deps, actor: Actor, postId: string): Promise<{ id: string }> {
  await deps.db.sql.begin(async (tx) => {
    const view = await viewPost(deps, tx, await requirePost(tx, actor.workspaceId, postId, { forUpdate: true }));
    await deleteBlogPostRow(tx, actor.workspaceId, postId);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'blog_post.deleted', blogPostEventData(view));
  });
  return { id: postId };
}

export async function handle(input: DeleteBlogPostInput, ctx: HandlerContext): Promise<DeleteBlogPostOutput> {
  const { id } = await deleteBlogPost(ctx.deps, actorFrom(ctx), input.path.post_id);
  return { status: 200, body: { id, deleted: true } };
}
