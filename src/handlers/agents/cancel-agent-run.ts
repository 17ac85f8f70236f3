import { findRun, updateRun, type AgentRunRow } from './agent-runs-data.ts';
import type { CancelAgentRunInput, CancelAgentRunOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { runBody, runEventData } from './wire.ts';

/**
 * A queued or waiting run is cancelled at once; a running one is marked and stops before its next step.
 * Members cancel their own runs, admins any. 409 `agent_run_finished` once it ended; asking twice is harmless.
 */
export async function cancelAgentRun(deps: Deps, actor: Actor, runId: string): Promise<AgentRunRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const run = await findRun(tx, actor.workspaceId, runId, { forUpdate: true });
    if (!run) throw new ApiError('not_found', `No agent run ${runId} in this workspace.`);
    const startedBy = run.actor.userId ?? null;
    if (actor.role !== 'owner' && actor.role !== 'admin' && (startedBy === null || startedBy !== actor.userId)) {
      throw new ApiError('forbidden', 'Only workspace admins can cancel runs someone else started.');
    }
    if (run.status === 'cancelled') return run;
    if (run.status === 'succeeded' || run.status === 'failed')
      throw new ApiError('agent_run_finished', `The run already ended with status ${run.status}.`);
    const now = deps.clock.now();
    if (run.status === 'running')
      return updateRun(tx, actor.workspaceId, runId, { cancelRequestedAt: run.cancel_requested_at ?? now, now });
    const steps = run.steps.map((s) =>
      s.status === 'pending' || s.status === 'waiting'
        ? { ...s, status: 'cancelled' as const, finished_at: s.status === 'waiting' ? now.toISOString() : null }
        : s,
    );
    const cancelled = await updateRun(tx, actor.workspaceId, runId, {
      status: 'cancelled',
      steps,
      cancelRequestedAt: now,
      requiredAction: null,
      waitingFor: null,
      finishedAt: now,
      now,
    });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'agent_run.cancelled', runEventData(cancelled));
    return cancelled;
  });
  deps.resourceWatch.changed(runId);
  return row;
}

export async function handle(input: CancelAgentRunInput, ctx: HandlerContext): Promise<CancelAgentRunOutput> {
  return { status: 200, body: runBody(await cancelAgentRun(ctx.deps, actorFrom(ctx), input.path.run_id)) };
}
