// Two recurring repairs of long work whose worker died:
// - a running operation whose heartbeat stopped (its worker was killed) while pg-boss still counts its
//   job active: the job is failed with a reason, so pg-boss retries it now (another worker, or this one
//   after a restart, resumes from the work's checkpoint) instead of after the job's expiry (an hour);
// - a job that died for good (its worker killed on the last attempt, so no run is left to end the
//   operation) would leave its operation `running` forever: unfinished operations idle for a while
//   whose job is no longer queued or running are failed.
import { z } from 'zod';
import { listSilentOperations, listStaleOperations } from './operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { endOperation, operationProblem } from './operation-job.ts';

const alive = new Set(['created', 'retry', 'active']);

export async function sweepStaleOperations(deps: Deps, idleSeconds: number): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - idleSeconds * 1000);
  let failed = 0;
  for (const row of await listStaleOperations(deps.db.sql, before, 500)) {
    const state = row.job_queue && row.job_id ? await deps.jobs.jobState(row.job_queue, row.job_id) : null;
    if (state !== null && alive.has(state)) continue;
    const error = new ApiError(
      'internal',
      'The work stopped: its job ended without finishing the operation (its worker died and the retries ran out).',
    );
    const ended = await endOperation(deps, deps.db.sql, row.workspace_id, row.id, {
      status: 'failed',
      error: operationProblem(error, row.id),
    });
    if (ended) {
      failed += 1;
      deps.log.warn({ operation_id: row.id, job_state: state }, 'operation failed by the sweep: its job is gone');
    }
  }
  return failed;
}

/**
 * Hands running operations whose heartbeat is older than `silentSeconds` back to the queue: their
 * job, still active in pg-boss, is failed so that it is retried. Returns how many.
 */
export async function retrySilentOperations(deps: Deps, silentSeconds: number): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - silentSeconds * 1000);
  let retried = 0;
  for (const row of await listSilentOperations(deps.db.sql, before, 500)) {
    if (!row.job_queue || !row.job_id) continue;
    if ((await deps.jobs.jobState(row.job_queue, row.job_id)) !== 'active') continue;
    await deps.jobs.failDeadJob(row.job_queue, row.job_id, `no heartbeat for ${silentSeconds} s: its worker died`);
    retried += 1;
    deps.log.warn(
      { operation_id: row.id, job_id: row.job_id },
      'operation handed to a retry: its worker stopped beating',
    );
  }
  return retried;
}

export interface SweepOperationsPayload {
  idleSeconds: number;
  /** A running operation silent this long has a dead worker (default 120 s: eight missed beats at the default rate). */
  silentSeconds?: number;
}

export const sweepStaleOperationsJob = defineJob({
  name: 'operations.sweep-stale',
  payload: z.object({ idleSeconds: z.number().int().min(1), silentSeconds: z.number().int().min(1).optional() }),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  handler: async ({ idleSeconds, silentSeconds }: SweepOperationsPayload, _job, deps: Deps) => {
    await retrySilentOperations(
      deps,
      silentSeconds ?? Math.max(120, Math.ceil((deps.config.operationHeartbeatMs * 8) / 1000)),
    );
    await sweepStaleOperations(deps, idleSeconds);
  },
});
