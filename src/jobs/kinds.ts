// The service's job kinds and recurring schedules, registered explicitly by both entries
// (src/main.ts and src/worker.ts), so the service and a separate worker run the same kinds.
import type { Sql } from 'postgres';
import { z } from 'zod';
import { defineJob, type JobKind } from './job-kind.ts';
import type { JobQueue } from './jobs.ts';
import { sweepEffects } from './run-once.ts';
import { sweepIdempotencyKeys } from '../data/idempotency.ts';

export interface JobKindsContext {
  sql: Sql;
}

/** Deletes job checkpoints (job_effects) long after any job that wrote them can still retry. */
export function sweepJobEffects(sql: Sql): JobKind<{ olderThanDays: number }> {
  return defineJob({
    name: 'jobs.sweep-effects',
    payload: z.object({ olderThanDays: z.number().int().min(1) }),
    policy: 'singleton',
    retry: { limit: 3, delaySeconds: 60, backoff: true },
    handler: async ({ olderThanDays }) => {
      await sweepEffects(sql, olderThanDays);
    },
  });
}

/** Deletes idempotency records past their 24 h; expired ones are already treated as absent, this keeps the table small. */
export function sweepIdempotency(sql: Sql): JobKind<Record<string, never>> {
  return defineJob({
    name: 'http.sweep-idempotency-keys',
    payload: z.object({}).strict(),
    policy: 'singleton',
    retry: { limit: 3, delaySeconds: 60, backoff: true },
    handler: async () => {
      await sweepIdempotencyKeys(sql, new Date());
    },
  });
}

export interface ServiceJobKinds {
  sweepJobEffects: JobKind<{ olderThanDays: number }>;
  sweepIdempotency: JobKind<Record<string, never>>;
}

export function serviceJobKinds(context: JobKindsContext): ServiceJobKinds {
  return { sweepJobEffects: sweepJobEffects(context.sql), sweepIdempotency: sweepIdempotency(context.sql) };
}

/** Recurring jobs; re-applied at every start, so a changed cron takes effect on deploy. */
export async function scheduleServiceJobs(queue: JobQueue, kinds: ServiceJobKinds): Promise<void> {
  // Checkpoints outlive pg-boss's own retention (14 days by default) so a late retry still finds them.
  await queue.schedule(kinds.sweepJobEffects, '17 3 * * *', { olderThanDays: 30 });
  await queue.schedule(kinds.sweepIdempotency, '23 * * * *', {});
}
