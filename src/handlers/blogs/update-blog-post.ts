import { slugsLike, updateBlogPostFields, type BlogPostFields } from './blog-posts-data.ts';
import type { UpdateBlogPostInput, UpdateBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requirePost, viewPost } from './post-records.ts';
import { blogPostBody, blogPostEventData, type BlogPostView } from './wire.ts';

export type BlogPostPatch = Partial<Omit<BlogPostFields, 'outline'>>;

/** Edits in any status: a published post changes on its public page at once. A slug another post has is 409. */
export async function updateBlogPost(
  deps: Deps,
  actor: Actor,
  postId: string,
  patch: BlogPostPatch,
): Promise<BlogPostView> {
  return deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, postId, { forUpdate: true });
    if (Object.keys(patch).length === 0) return viewPost(deps, tx, current);
    if (
      patch.slug &&
      patch.slug !== current.slug &&
      (await slugsLike(tx, actor.workspaceId, patch.slug, current.id)).has(patch.slug)
    ) {
      throw new ApiError('slug_taken', `Another post of this workspace has the slug "${patch.slug}": choose another.`);
    }
    const updated = await updateBlogPostFields(
      tx,
      actor.workspaceId,
      postId,
      { ...current, ...patch },
      deps.clock.now(),
    );
    const view = await viewPost(deps, tx, updated);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'blog_post.updated', blogPostEventData(view));
    return view;
  });
}

export async function handle(input: UpdateBlogPostInput, ctx: HandlerContext): Promise<UpdateBlogPostOutput> {
  return {
    status: 200,
    body: blogPostBody(await updateBlogPost(ctx.deps, actorFrom(ctx), input.path.post_id, input.body)),
  };
}
