import type { RunStatus } from './agent-runs-data.ts';
import type {
  CancelAgentRunInput,
  CancelAgentRunOutput,
  GetAgentInput,
  GetAgentOutput,
  GetAgentRunInput,
  GetAgentRunOutput,
  ListAgentRunsInput,
  ListAgentRunsOutput,
  ListAgentsInStoreInput,
  ListAgentsInStoreOutput,
  RunAgentInput,
  RunAgentOutput,
} from '../../generated/handlers.ts';
import { findStoreAgent, listStoreAgents } from './store.ts';
import { cancelRun, getRun, listRuns, startRun } from './runs.ts';
import { agentBody, runBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly RunStatus[] = ['queued', 'running', 'requires_action', 'succeeded', 'failed', 'cancelled'];
const runPath = (id: string) => `/api/v1/agent-runs/${id}`;

export async function listAgentsInStore(_input: ListAgentsInStoreInput, ctx: HandlerContext): Promise<ListAgentsInStoreOutput> {
  actorFrom(ctx);
  return { status: 200, body: { data: listStoreAgents().map(agentBody) } };
}

export async function getAgent(input: GetAgentInput, ctx: HandlerContext): Promise<GetAgentOutput> {
  actorFrom(ctx);
  return { status: 200, body: agentBody(findStoreAgent(input.path.agent_id)) };
}

export async function runAgent(input: RunAgentInput, ctx: HandlerContext): Promise<RunAgentOutput> {
  const run = await startRun(ctx.deps, actorFrom(ctx), { agentId: input.path.agent_id, input: input.body.input });
  return { status: 202, body: runBody(run), headers: { Location: runPath(run.id) } };
}

export async function getAgentRun(input: GetAgentRunInput, ctx: HandlerContext): Promise<GetAgentRunOutput> {
  const run = await getRun(ctx.deps, actorFrom(ctx), { runId: input.path.run_id, waitSeconds: input.query.wait_seconds ?? 0, signal: ctx.signal });
  return { status: 200, body: runBody(run) };
}

export async function listAgentRuns(input: ListAgentRunsInput, ctx: HandlerContext): Promise<ListAgentRunsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_agent_runs', actor.workspaceId);
  const runs = await listRuns(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), agentId: input.query.agent_id, before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(runs, limit, runBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}

export async function cancelAgentRun(input: CancelAgentRunInput, ctx: HandlerContext): Promise<CancelAgentRunOutput> {
  return { status: 200, body: runBody(await cancelRun(ctx.deps, actorFrom(ctx), input.path.run_id)) };
}
