// Publishing: now, or at `publish_at` (the post waits as `scheduled`; the `blogs.publish-due` job in
// publish.ts, run every minute and also queued for the exact time, publishes it).
import { setBlogPostStatus, type BlogPostRow } from './blog-posts-data.ts';
import type { PublishBlogPostInput, PublishBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor } from '../events/record-event.ts';
import { recordPostEvent, requirePost, viewPost } from './post-records.ts';
import { blogPostBody, type BlogPostView } from './wire.ts';
import { publishDueBlogPostsJob } from './publish.ts';

export async function publishBlogPost(
  deps: Deps,
  actor: Actor,
  request: { postId: string; publishAt?: string },
): Promise<BlogPostView> {
  const now = deps.clock.now();
  const at = request.publishAt ? new Date(request.publishAt) : null;
  const scheduled = at !== null && at.getTime() > now.getTime();
  const view = await deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, request.postId, { forUpdate: true });
    const who = eventActor(actor);
    if (!scheduled) {
      if (current.status === 'published') return viewPost(deps, tx, current);
      const row = await setBlogPostStatus(tx, actor.workspaceId, current.id, {
        from: [current.status],
        to: 'published',
        publishAt: null,
        publishedAt: now,
        now,
      });
      return recordPostEvent(deps, tx, who, row as BlogPostRow, 'blog_post.published');
    }
    if (current.status === 'scheduled' && current.publish_at?.getTime() === at.getTime())
      return viewPost(deps, tx, current);
    // A published post asked to appear later leaves the blog until then.
    const row = await setBlogPostStatus(tx, actor.workspaceId, current.id, {
      from: [current.status],
      to: 'scheduled',
      publishAt: at,
      publishedAt: null,
      now,
    });
    // A delay from the service's clock rather than a date: the queue waits by the database's clock.
    await deps.jobs.enqueue(
      publishDueBlogPostsJob,
      {},
      { tx, startAfter: Math.ceil((at.getTime() - now.getTime()) / 1000) },
    );
    return recordPostEvent(deps, tx, who, row as BlogPostRow, 'blog_post.scheduled');
  });
  deps.resourceWatch.changed(view.row.id);
  return view;
}

export async function handle(input: PublishBlogPostInput, ctx: HandlerContext): Promise<PublishBlogPostOutput> {
  return {
    status: 200,
    body: blogPostBody(
      await publishBlogPost(ctx.deps, actorFrom(ctx), {
        postId: input.path.post_id,
        publishAt: input.body?.publish_at,
      }),
    ),
  };
}
