// The `blogs.publish-due` job: publishes scheduled posts whose time has come (publish_blog_post schedules
// them). A scheduled post is published by a conditional update inside the transaction that records its
// event, so however many jobs run at once it is published, and announced, exactly once.
import { z } from 'zod';
import { duePostsAcrossWorkspaces, setBlogPostStatus } from './blog-posts-data.ts';
import type { Deps } from '../../deps.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import type { EventActor } from '../events/events-data.ts';
import { recordPostEvent } from './post-records.ts';

const DUE_BATCH = 100;
const system: EventActor = { type: 'system', id: null };

/** Publishes every scheduled post whose time has come; returns the ids this call published. */
export async function publishDuePosts(deps: Deps): Promise<string[]> {
  const now = deps.clock.now();
  const published: string[] = [];
  for (const due of await duePostsAcrossWorkspaces(deps.db.sql, now, DUE_BATCH)) {
    const done = await deps.db.sql.begin(async (tx) => {
      const row = await setBlogPostStatus(tx, due.workspace_id, due.id, {
        from: ['scheduled'],
        to: 'published',
        publishAt: null,
        publishedAt: now,
        now,
        dueBy: now,
      });
      // Undefined: another job published it first, or a person unpublished or rescheduled it meanwhile.
      if (!row) return false;
      await recordPostEvent(deps, tx, system, row, 'blog_post.published');
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
