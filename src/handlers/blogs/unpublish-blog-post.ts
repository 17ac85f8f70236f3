import { setBlogPostStatus, type BlogPostRow } from './blog-posts-data.ts';
import type { UnpublishBlogPostInput, UnpublishBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor } from '../events/record-event.ts';
import { recordPostEvent, requirePost, viewPost } from './post-records.ts';
import { blogPostBody, type BlogPostView } from './wire.ts';

/** Returns a published or scheduled post to draft; a draft stays as it is. */
export async function unpublishBlogPost(deps: Deps, actor: Actor, postId: string): Promise<BlogPostView> {
  const view = await deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, postId, { forUpdate: true });
    if (current.status === 'draft') return viewPost(deps, tx, current);
    const row = await setBlogPostStatus(tx, actor.workspaceId, postId, {
      from: [current.status],
      to: 'draft',
      publishAt: null,
      publishedAt: null,
      now: deps.clock.now(),
    });
    return recordPostEvent(deps, tx, eventActor(actor), row as BlogPostRow, 'blog_post.unpublished');
  });
  deps.resourceWatch.changed(view.row.id);
  return view;
}

export async function handle(input: UnpublishBlogPostInput, ctx: HandlerContext): Promise<UnpublishBlogPostOutput> {
  return { status: 200, body: blogPostBody(await unpublishBlogPost(ctx.deps, actorFrom(ctx), input.path.post_id)) };
}
