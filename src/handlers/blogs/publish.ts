// Publishing: now, or at `publish_at` (the post waits as `scheduled`; publishDueBlogPostsJob, run
// every minute and also queued for the exact time, publishes it). A scheduled post is published by a
// conditional update inside the transaction that records its event, so however many jobs run at once
// it is published, and announced, exactly once. Unpublishing returns a post to draft.
import { z } from 'zod';
import { duePostsAcrossWorkspaces, setBlogPostStatus, type BlogPostRow } from './blog-posts-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import type { EventActor } from '../events/events-data.ts';
import { requirePost, viewPost } from './posts-logic.ts';
import { blogPostEventData, type BlogPostView } from './wire.ts';

const DUE_BATCH = 100;
const system: EventActor = { type: 'system', id: null };

async function moved(deps: Deps, tx: Queryable, actor: EventActor, row: BlogPostRow, event: string): Promise<BlogPostView> {
  const view = await viewPost(deps, tx, row);
  await recordEvent(deps, tx, row.workspace_id, actor, event, blogPostEventData(view));
  return view;
}

export async function publishPost(deps: Deps, actor: Actor, request: { postId: string; publishAt?: string }): Promise<BlogPostView> {
  const now = deps.clock.now();
  const at = request.publishAt ? new Date(request.publishAt) : null;
  const scheduled = at !== null && at.getTime() > now.getTime();
  const view = await deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, request.postId, { forUpdate: true });
    const who = eventActor(actor);
    if (!scheduled) {
      if (current.status === 'published') return viewPost(deps, tx, current);
      const row = await setBlogPostStatus(tx, actor.workspaceId, current.id, { from: [current.status], to: 'published', publishAt: null, publishedAt: now, now });
      return moved(deps, tx, who, row as BlogPostRow, 'blog_post.published');
    }
    if (current.status === 'scheduled' && current.publish_at?.getTime() === at.getTime()) return viewPost(deps, tx, current);
    // A published post asked to appear later leaves the blog until then.
    const row = await setBlogPostStatus(tx, actor.workspaceId, current.id, { from: [current.status], to: 'scheduled', publishAt: at, publishedAt: null, now });
    // A delay from the service's clock rather than a date: the queue waits by the database's clock.
    await deps.jobs.enqueue(publishDueBlogPostsJob, {}, { tx, startAfter: Math.ceil((at.getTime() - now.getTime()) / 1000) });
    return moved(deps, tx, who, row as BlogPostRow, 'blog_post.scheduled');
  });
  deps.resourceWatch.changed(view.row.id);
  return view;
}

export async function unpublishPost(deps: Deps, actor: Actor, postId: string): Promise<BlogPostView> {
  const view = await deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, postId, { forUpdate: true });
    if (current.status === 'draft') return viewPost(deps, tx, current);
    const row = await setBlogPostStatus(tx, actor.workspaceId, postId, { from: [current.status], to: 'draft', publishAt: null, publishedAt: null, now: deps.clock.now() });
    return moved(deps, tx, eventActor(actor), row as BlogPostRow, 'blog_post.unpublished');
  });
  deps.resourceWatch.changed(view.row.id);
  return view;
}

/** Publishes every scheduled post whose time has come; returns the ids this call published. */
export async function publishDuePosts(deps: Deps): Promise<string[]> {
  const now = deps.clock.now();
  const published: string[] = [];
  for (const due of await duePostsAcrossWorkspaces(deps.db.sql, now, DUE_BATCH)) {
    const done = await deps.db.sql.begin(async (tx) => {
      const row = await setBlogPostStatus(tx, due.workspace_id, due.id, { from: ['scheduled'], to: 'published', publishAt: null, publishedAt: now, now, dueBy: now });
      // Undefined: another job published it first, or a person unpublished or rescheduled it meanwhile.
      if (!row) return false;
      await moved(deps, tx, system, row, 'blog_post.published');
      return true;
    });
    if (done) {
      published.push(due.id);
      deps.resourceWatch.changed(due.id);
    }
  }
  return published;
}

/** Publishes the scheduled posts whose time has come: queued for a post's exact time, and every minute. */
export const publishDueBlogPostsJob = defineJob({
  name: 'blogs.publish-due',
  payload: z.object({}).strict(),
  expireInSeconds: 5 * 60,
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  handler: async (_payload, _job, deps: Deps) => {
    await publishDuePosts(deps);
  },
});
