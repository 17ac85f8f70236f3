// The recurring job that keeps job_effects small: checkpoints outlive any retry of the job that wrote them.
import type { Sql } from 'postgres';
import { z } from 'zod';
import { defineJob } from './job-kind.ts';
import { sweepEffects } from './run-once.ts';

/** Deletes job checkpoints (job_effects) long after any job that wrote them can still retry. */
export const sweepJobEffectsJob = defineJob({
  name: 'jobs.sweep-effects',
  payload: z.object({ olderThanDays: z.number().int().min(1) }),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  handler: async ({ olderThanDays }, _job, deps: { db: { sql: Sql } }) => {
    await sweepEffects(deps.db.sql, olderThanDays);
  },
});
