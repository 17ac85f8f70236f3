// The recurring job that keeps idempotency_keys small.
import type { Sql } from 'postgres';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { defineJob } from '../jobs/job-kind.ts';
import { sweepIdempotencyKeys } from './idempotency-data.ts';

/** Deletes idempotency records past their 24 h; expired ones are already treated as absent, this keeps the table small. */
export const sweepIdempotencyKeysJob = defineJob({
  name: 'http.sweep-idempotency-keys',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  handler: async (_payload, _job, deps: { db: { sql: Sql }; clock: Clock }) => {
    await sweepIdempotencyKeys(deps.db.sql, deps.clock.now());
  },
});
