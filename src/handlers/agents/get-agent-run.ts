// Reads a run, optionally waiting for it to change: how a caller follows a run to its end or to the
// action it waits for.
import { findRun, type AgentRunRow } from './agent-runs-data.ts';
import type { GetAgentRunInput, GetAgentRunOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { runBody } from './wire.ts';

async function requireRun(deps: Deps, workspaceId: string, runId: string): Promise<AgentRunRow> {
  const row = await findRun(deps.db.sql, workspaceId, runId);
  if (!row) throw new ApiError('not_found', `No agent run ${runId} in this workspace.`);
  return row;
}

const watchedRun: Watched<AgentRunRow> = {
  fingerprint: (r) => JSON.stringify([r.status, r.required_action?.url ?? null, r.steps.map((s) => s.status)]),
  settled: (r) => ['succeeded', 'failed', 'cancelled'].includes(r.status),
  // A caller must hear of a person's action to ask for, however it came to call (after start_run, say).
  notice: (r) => r.status === 'requires_action',
};

/**
 * With `waitSeconds`, answers as soon as the status, the required action or a step changes (or already
 * differs from what this caller was last told); a finished run at once.
 */
export function getAgentRun(
  deps: Deps,
  actor: Actor,
  request: { runId: string; waitSeconds: number; signal?: AbortSignal },
): Promise<AgentRunRow> {
  const read = () => requireRun(deps, actor.workspaceId, request.runId);
  return waitForChange(
    deps,
    actor,
    { id: request.runId, waitSeconds: request.waitSeconds, signal: request.signal },
    read,
    watchedRun,
  );
}

export async function handle(input: GetAgentRunInput, ctx: HandlerContext): Promise<GetAgentRunOutput> {
  const run = await getAgentRun(ctx.deps, actorFrom(ctx), {
    runId: input.path.run_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body: runBody(run) };
}
