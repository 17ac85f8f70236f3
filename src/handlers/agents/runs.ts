// Agent runs as records: start one (input checked against the agent's schema, the run and its job committed
// together), read it (with a wait for a change), list them, cancel one.
import { findRun, insertRun, listRuns as listRows, updateRun, type AgentRunRow, type RunStatus } from './agent-runs-data.ts';
import type { Deps } from '../../deps.ts';
import { runAgentJob } from './run-job.ts';
import { ApiError, type FieldError } from '../../errors.ts';
import { findStoreAgent } from './store.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { runEventData } from './wire.ts';

function parseInput(slug: string, schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; code: string; message: string }[] } } }, input: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const errors: FieldError[] = (parsed.error?.issues ?? []).map((issue) => ({
    pointer: `/input${issue.path.map((p) => `/${String(p)}`).join('')}`,
    code: issue.code,
    message: issue.message,
  }));
  throw new ApiError('validation_failed', `The input does not match ${slug}'s input_schema (get_agent shows it): ${errors.map((e) => `${e.pointer} ${e.message}`).join('; ')}.`, { errors });
}

export async function startRun(deps: Deps, actor: Actor, request: { agentId: string; input: unknown }): Promise<AgentRunRow> {
  const agent = findStoreAgent(request.agentId);
  const { definition } = agent;
  const input = parseInput(definition.slug, definition.input, request.input);
  await definition.precheck?.(deps, actor, input);
  const row = await deps.db.sql.begin(async (tx) => {
    const run = await insertRun(tx, actor.workspaceId, deps.ids, {
      agent: { id: agent.id, slug: definition.slug, version: definition.version },
      input,
      actor: { ...actor },
      steps: definition.steps.map((s) => s.name),
      now: deps.clock.now(),
    });
    await deps.jobs.enqueue(runAgentJob, { workspace_id: actor.workspaceId, run_id: run.id }, { tx });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'agent_run.queued', runEventData(run));
    return run;
  });
  deps.jobs.wake(runAgentJob);
  return row;
}

export async function requireRun(deps: Deps, workspaceId: string, runId: string): Promise<AgentRunRow> {
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
export function getRun(deps: Deps, actor: Actor, request: { runId: string; waitSeconds: number; signal?: AbortSignal }): Promise<AgentRunRow> {
  const read = () => requireRun(deps, actor.workspaceId, request.runId);
  return waitForChange(deps, actor, { id: request.runId, waitSeconds: request.waitSeconds, signal: request.signal }, read, watchedRun);
}

export function listRuns(deps: Deps, actor: Actor, page: { statuses: RunStatus[]; agentId?: string; before?: { at: string; id: string }; limit: number }): Promise<AgentRunRow[]> {
  const agentId = page.agentId ? findStoreAgent(page.agentId).id : undefined;
  return listRows(deps.db.sql, actor.workspaceId, { ...page, agentId });
}

/**
 * A queued or waiting run is cancelled at once; a running one is marked and stops before its next step.
 * Members cancel their own runs, admins any. 409 `agent_run_finished` once it ended; asking twice is harmless.
 */
export async function cancelRun(deps: Deps, actor: Actor, runId: string): Promise<AgentRunRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const run = await findRun(tx, actor.workspaceId, runId, { forUpdate: true });
    if (!run) throw new ApiError('not_found', `No agent run ${runId} in this workspace.`);
    const startedBy = (run.actor as { userId?: string | null }).userId ?? null;
    if (actor.role !== 'owner' && actor.role !== 'admin' && (startedBy === null || startedBy !== actor.userId)) {
      throw new ApiError('forbidden', 'Only workspace admins can cancel runs someone else started.');
    }
    if (run.status === 'cancelled') return run;
    if (run.status === 'succeeded' || run.status === 'failed') throw new ApiError('agent_run_finished', `The run already ended with status ${run.status}.`);
    const now = deps.clock.now();
    if (run.status === 'running') return updateRun(tx, actor.workspaceId, runId, { cancelRequestedAt: run.cancel_requested_at ?? now, now });
    const steps = run.steps.map((s) => (s.status === 'pending' || s.status === 'waiting' ? { ...s, status: 'cancelled' as const, finished_at: s.status === 'waiting' ? now.toISOString() : null } : s));
    const cancelled = await updateRun(tx, actor.workspaceId, runId, { status: 'cancelled', steps, cancelRequestedAt: now, requiredAction: null, waitingFor: null, finishedAt: now, now });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'agent_run.cancelled', runEventData(cancelled));
    return cancelled;
  });
  deps.resourceWatch.changed(runId);
  return row;
}
