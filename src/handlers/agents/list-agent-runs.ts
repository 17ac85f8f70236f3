import { listRuns } from './agent-runs-data.ts';
import type { ListAgentRunsInput, ListAgentRunsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { findStoreAgent } from './store.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { runBody } from './wire.ts';

export type ListAgentRunsRequest = ListAgentRunsInput['query'];

/** The workspace's runs, newest first; `agent_id` takes an agent's id or slug (404 for one the store lacks). */
export function listAgentRuns(deps: Deps, actor: Actor, request: ListAgentRunsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_agent_runs', actor.workspaceId),
    fetch: ({ limit, after }) => {
      const agentId = request.agent_id ? findStoreAgent(request.agent_id).id : undefined;
      return listRuns(deps.db.sql, actor.workspaceId, {
        statuses: request.status ?? [],
        agentId,
        before: after,
        limit,
      });
    },
    toItem: runBody,
    position: byCreation,
  });
}

export async function handle(input: ListAgentRunsInput, ctx: HandlerContext): Promise<ListAgentRunsOutput> {
  return { status: 200, body: await listAgentRuns(ctx.deps, actorFrom(ctx), input.query) };
}
