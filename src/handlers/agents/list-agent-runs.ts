import { listRuns, type AgentRunRow, type RunStatus } from './agent-runs-data.ts';
import type { ListAgentRunsInput, ListAgentRunsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { findStoreAgent } from './store.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { runBody } from './wire.ts';

const statuses: readonly RunStatus[] = ['queued', 'running', 'requires_action', 'succeeded', 'failed', 'cancelled'];

export function listAgentRuns(deps: Deps, actor: Actor, page: { statuses: RunStatus[]; agentId?: string; before?: { at: string; id: string }; limit: number }): Promise<AgentRunRow[]> {
  const agentId = page.agentId ? findStoreAgent(page.agentId).id : undefined;
  return listRuns(deps.db.sql, actor.workspaceId, { ...page, agentId });
}

export async function handle(input: ListAgentRunsInput, ctx: HandlerContext): Promise<ListAgentRunsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_agent_runs', actor.workspaceId);
  const runs = await listAgentRuns(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), agentId: input.query.agent_id, before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(runs, limit, runBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
