// A job that died for good (its worker killed on the last attempt, so no run is left to end the
// operation) would leave its operation `running` forever. This recurring sweep finds unfinished
// operations idle for a while whose job is no longer queued or running, and fails them.
import { z } from 'zod';
import { listStaleOperations } from '../../data/operations.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { endOperation, operationProblem } from './operation-job.ts';

const alive = new Set(['created', 'retry', 'active']);

export async function sweepStaleOperations(deps: Deps, idleSeconds: number): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - idleSeconds * 1000);
  let failed = 0;
  for (const row of await listStaleOperations(deps.db.sql, before, 500)) {
    const state = row.job_queue && row.job_id ? await deps.jobs.jobState(row.job_queue, row.job_id) : null;
    if (state !== null && alive.has(state)) continue;
    const error = new ApiError('internal', 'The work stopped: its job ended without finishing the operation (its worker died and the retries ran out).');
    const ended = await endOperation(deps, deps.db.sql, row.workspace_id, row.id, { status: 'failed', error: operationProblem(error, row.id) });
    if (ended) {
      failed += 1;
      deps.log.warn({ operation_id: row.id, job_state: state }, 'operation failed by the sweep: its job is gone');
    }
  }
  return failed;
}

export function sweepStaleOperationsJob(deps: Deps): JobKind<{ idleSeconds: number }> {
  return defineJob({
    name: 'operations.sweep-stale',
    payload: z.object({ idleSeconds: z.number().int().min(1) }),
    policy: 'singleton',
    retry: { limit: 2, delaySeconds: 30, backoff: false },
    handler: async ({ idleSeconds }) => {
      await sweepStaleOperations(deps, idleSeconds);
    },
  });
}
