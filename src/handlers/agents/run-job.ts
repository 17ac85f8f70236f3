// The run engine: runAgentJob (queue `agents.run`) takes a run through its agent's steps in order, saving each step's
// result on the run, so a run resumed after a restart, a retry or a person's action goes on from the step
// it stopped at. One job per run at a time (the stately queue policy keyed by run id); a job claims the
// run before touching it, so a stray duplicate finds nothing to do. A step that needs a person parks the
// run in `requires_action`; the event of the resource it waits for (or the minute sweep) runs the job again,
// the step decides again, and the run goes on, keeps waiting, or fails when its deadline has passed.
import { z } from 'zod';
import {
  findRun,
  mergeRunState,
  updateRun,
  type AgentRunRow,
  type ResourceRef,
  type RunOutput,
  type RunChange,
  type RunStep,
} from './agent-runs-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError, toProblem } from '../../errors.ts';
import { defineJob, type JobContext } from '../../jobs/job-kind.ts';
import type { AgentStep, StepWait } from './agent-definition.ts';
import { findStoreAgent } from './store.ts';
import { recordEvent } from '../events/record-event.ts';
import { runEventData } from './wire.ts';

export interface RunPayload {
  workspace_id: string;
  run_id: string;
}

const RETRIES = 3;
/** A run `running` with no change for this long lost its job (the worker died): the sweep hands it to a new one. */
export const RUN_STALE_SECONDS = 15 * 60;
const system = { type: 'system' as const, id: null };

/** Takes an agent run through its steps, from the one it stopped at. */
export const runAgentJob = defineJob({
  name: 'agents.run',
  payload: z.object({ workspace_id: z.string(), run_id: z.string() }),
  policy: 'stately',
  singletonKey: (p) => p.run_id,
  expireInSeconds: 10 * 60,
  retry: { limit: RETRIES, delaySeconds: 10, backoff: true },
  handler: (payload: RunPayload, job, deps: Deps) => advanceRun(deps, payload, job),
});

/** Takes the run for this job, or undefined when it ended or another job holds it. */
async function claim(deps: Deps, payload: RunPayload, job: JobContext): Promise<AgentRunRow | undefined> {
  return deps.db.sql.begin(async (tx) => {
    const run = await findRun(tx, payload.workspace_id, payload.run_id, { forUpdate: true });
    if (!run || ['succeeded', 'failed', 'cancelled'].includes(run.status)) return undefined;
    const now = deps.clock.now();
    const stale = run.updated_at.getTime() < now.getTime() - RUN_STALE_SECONDS * 1000;
    if (run.status === 'running' && run.runner_job !== job.id && !stale) return undefined;
    return updateRun(tx, run.workspace_id, run.id, {
      status: run.status === 'requires_action' ? 'requires_action' : 'running',
      runnerJob: job.id,
      now,
    });
  });
}

async function change(
  deps: Deps,
  run: AgentRunRow,
  patch: Omit<RunChange, 'now'>,
  event?: string,
  q: Queryable = deps.db.sql,
): Promise<AgentRunRow> {
  const write = async (tx: Queryable) => {
    const row = await updateRun(tx, run.workspace_id, run.id, { ...patch, now: deps.clock.now() });
    if (event) await recordEvent(deps, tx, run.workspace_id, system, event, runEventData(row));
    return row;
  };
  const row = event && q === deps.db.sql ? await deps.db.sql.begin(write) : await write(q);
  deps.resourceWatch.changed(run.id);
  return row;
}

const stepsWith = (run: AgentRunRow, index: number, patch: Partial<RunStep>): RunStep[] =>
  run.steps.map((s, i) => (i === index ? { ...s, ...patch } : s));

async function finishFailed(deps: Deps, run: AgentRunRow, error: ApiError): Promise<void> {
  const { request_id: _r, ...problem } = toProblem(error, run.id);
  const now = deps.clock.now().toISOString();
  const steps = run.steps.map((s, i) =>
    i === run.step_index ? { ...s, status: 'failed' as const, finished_at: now } : s,
  );
  await change(
    deps,
    run,
    {
      status: 'failed',
      steps,
      error: { ...problem, instance: `/api/v1/agent-runs/${run.id}` },
      requiredAction: null,
      waitingFor: null,
      runnerJob: null,
      finishedAt: deps.clock.now(),
    },
    'agent_run.failed',
  );
}

async function park(deps: Deps, run: AgentRunRow, wait: StepWait): Promise<void> {
  const now = deps.clock.now();
  const sameWait = run.status === 'requires_action' && run.waiting_for === wait.action.resource.id && run.wait_deadline;
  const deadline = sameWait ? (run.wait_deadline as Date) : new Date(now.getTime() + wait.timeoutSeconds * 1000);
  if (now >= deadline) return finishFailed(deps, run, new ApiError(wait.timeoutCode, wait.timeoutMessage));
  const action = { ...wait.action, expires_at: deadline.toISOString() };
  if (sameWait && run.required_action?.url === action.url) {
    await updateRun(deps.db.sql, run.workspace_id, run.id, { runnerJob: null, now });
    return;
  }
  const steps = stepsWith(run, run.step_index, {
    status: 'waiting',
    started_at: run.steps[run.step_index].started_at ?? now.toISOString(),
  });
  await change(
    deps,
    run,
    {
      status: 'requires_action',
      steps,
      requiredAction: action,
      waitingFor: wait.action.resource.id,
      waitDeadline: deadline,
      runnerJob: null,
    },
    sameWait ? undefined : 'agent_run.requires_action',
  );
}

function mergeResources(
  run: AgentRunRow,
  more: ResourceRef[] = [],
  extra: Record<string, unknown> = {},
): RunOutput | null {
  const all = [...(run.output?.resources ?? []), ...more].filter(
    (r, i, list) => list.findIndex((o) => o.type === r.type && o.id === r.id) === i,
  );
  const rest = { ...run.output, ...extra, resources: all };
  return all.length || Object.keys(rest).length > 1 ? rest : null;
}

async function runStep(
  deps: Deps,
  run: AgentRunRow,
  step: AgentStep<Record<string, unknown>>,
  job: JobContext,
): Promise<AgentRunRow | undefined> {
  const now = () => deps.clock.now().toISOString();
  if (run.status !== 'requires_action')
    run = await change(deps, run, {
      steps: stepsWith(run, run.step_index, {
        status: 'running',
        started_at: run.steps[run.step_index].started_at ?? now(),
      }),
    });
  const state = { ...run.state };
  const result = await step.run({
    deps,
    actor: run.actor,
    runId: run.id,
    input: run.input,
    state,
    save: async (tx, patch) => {
      Object.assign(state, patch);
      await mergeRunState(tx, run.workspace_id, run.id, patch);
    },
    signal: job.signal,
  });
  if (!result.done) {
    await park(deps, run, result);
    return undefined;
  }
  const steps = stepsWith(run, run.step_index, {
    status: 'succeeded',
    started_at: run.steps[run.step_index].started_at ?? now(),
    finished_at: now(),
  });
  const resumed = run.status === 'requires_action';
  return change(deps, run, {
    ...(resumed && { status: 'running', requiredAction: null, waitingFor: null, waitDeadline: null }),
    state: { ...state, ...result.state },
    steps,
    stepIndex: run.step_index + 1,
    output: mergeResources(run, result.resources, result.output),
    notes: [...run.notes, ...(result.notes ?? [])],
  });
}

async function advanceRun(deps: Deps, payload: RunPayload, job: JobContext): Promise<void> {
  let run = await claim(deps, payload, job);
  if (!run) return;
  const { definition } = findStoreAgent(run.agent_id);
  try {
    while (run.step_index < definition.steps.length) {
      const fresh = await findRun(deps.db.sql, run.workspace_id, run.id);
      if (fresh?.cancel_requested_at || fresh?.status === 'cancelled') return await finishCancelled(deps, fresh);
      const next = await runStep(deps, run, definition.steps[run.step_index], job);
      if (!next) return;
      run = next;
    }
    await change(
      deps,
      run,
      { status: 'succeeded', runnerJob: null, finishedAt: deps.clock.now() },
      'agent_run.succeeded',
    );
  } catch (error) {
    if (error instanceof ApiError) return finishFailed(deps, run, error);
    deps.log.error({ err: error, run_id: run.id, attempt: job.attempt }, 'agent run step failed');
    if (job.attempt > RETRIES)
      return finishFailed(
        deps,
        run,
        new ApiError('internal', 'The run failed after its retries; nothing further will be attempted.'),
      );
    throw error;
  }
}

async function finishCancelled(deps: Deps, run: AgentRunRow): Promise<void> {
  if (run.status === 'cancelled') return;
  const now = deps.clock.now();
  const steps = run.steps.map((s) =>
    s.status === 'pending' || s.status === 'running' || s.status === 'waiting'
      ? { ...s, status: 'cancelled' as const, finished_at: s.status === 'pending' ? null : now.toISOString() }
      : s,
  );
  await change(
    deps,
    run,
    { status: 'cancelled', steps, requiredAction: null, waitingFor: null, runnerJob: null, finishedAt: now },
    'agent_run.cancelled',
  );
}
