// What wakes a waiting run: the event of the resource it waits for (a connector connected, a sequence
// approved or rejected), enqueued in the transaction that records the event, so the run resumes only if the
// change commits. The minute sweep looks again at every waiting run (a deadline passed, a consent link to
// renew, an event that came between the step's look and the run's parking) and at runs whose job was lost.
import { z } from 'zod';
import { listRunsToRecheck, runsWaitingOn } from './agent-runs-data.ts';
import type { EventRow } from '../events/events-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { RUN_STALE_SECONDS, runAgentJob } from './run-job.ts';

const SWEEP_BATCH = 200;
/**
 * The events a waiting step can act on (a person allowed access, approved or rejected). Every event of the
 * platform passes here, inside its transaction: the others (a sent message, an import) cost no query.
 */
const RESUMING_EVENTS = new Set([
  'connector.connected',
  'connector.failed',
  'email_sequence.approved',
  'email_sequence.rejected',
]);

/** An event subscriber (deps.eventSubscribers, registered in src/services.ts), run in the events' transaction. */
export async function resumeRunsWaitingOn(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  events: readonly EventRow[],
): Promise<void> {
  for (const event of events) {
    const resourceId = event.data.id;
    if (typeof resourceId !== 'string' || !RESUMING_EVENTS.has(event.type)) continue;
    for (const run of await runsWaitingOn(tx, workspaceId, resourceId)) {
      await deps.jobs.enqueue(runAgentJob, { workspace_id: workspaceId, run_id: run.id }, { tx });
    }
  }
}

/** Every minute: runs again each waiting run (a deadline, a link to renew, a missed event) and each whose job was lost. */
export const recheckAgentRunsJob = defineJob({
  name: 'agents.sweep',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  handler: async (_payload, _job, deps: Deps) => {
    const staleBefore = new Date(deps.clock.now().getTime() - RUN_STALE_SECONDS * 1000);
    const runs = await listRunsToRecheck(deps.db.sql, staleBefore, SWEEP_BATCH);
    for (const run of runs) await deps.jobs.enqueue(runAgentJob, { workspace_id: run.workspace_id, run_id: run.id });
    if (runs.length) deps.jobs.wake(runAgentJob);
  },
});
