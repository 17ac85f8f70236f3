// Starts a run of a store agent: its input checked against the agent's schema, then the run and its job
// committed together, so the run engine (run-job.ts) takes it from its first step.
import { insertRun, type AgentRunRow } from './agent-runs-data.ts';
import type { RunAgentInput, RunAgentOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError, type FieldError } from '../../errors.ts';
import { findStoreAgent } from './store.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { agentRunPath, runBody, runEventData } from './wire.ts';
import { runAgentJob } from './run-job.ts';

function parseInput(
  slug: string,
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      data?: unknown;
      error?: { issues: { path: PropertyKey[]; code: string; message: string }[] };
    };
  },
  input: unknown,
): Record<string, unknown> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const errors: FieldError[] = (parsed.error?.issues ?? []).map((issue) => ({
    pointer: `/input${issue.path.map((p) => `/${String(p)}`).join('')}`,
    code: issue.code,
    message: issue.message,
  }));
  throw new ApiError(
    'validation_failed',
    `The input does not match ${slug}'s input_schema (get_agent shows it): ${errors.map((e) => `${e.pointer} ${e.message}`).join('; ')}.`,
    { errors },
  );
}

export async function runAgent(
  deps: Deps,
  actor: Actor,
  request: { agentId: string; input: unknown },
): Promise<AgentRunRow> {
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

export async function handle(input: RunAgentInput, ctx: HandlerContext): Promise<RunAgentOutput> {
  const run = await runAgent(ctx.deps, actorFrom(ctx), { agentId: input.path.agent_id, input: input.body.input });
  return { status: 202, body: runBody(run), headers: { Location: agentRunPath(run.id) } };
}
