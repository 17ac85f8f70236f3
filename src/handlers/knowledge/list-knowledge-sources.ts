import type { ListKnowledgeSourcesInput, ListKnowledgeSourcesOutput } from '../../generated/handlers.ts';
import { listSources } from './knowledge-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { sourceBody } from './wire.ts';

export type ListKnowledgeSourcesRequest = ListKnowledgeSourcesInput['query'];

/** The workspace's sources, newest first; any member may. */
export function listKnowledgeSources(deps: Deps, actor: Actor, request: ListKnowledgeSourcesRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_knowledge_sources', actor.workspaceId),
    fetch: ({ limit, after }) => listSources(deps.db.sql, actor.workspaceId, { limit, before: after }),
    toItem: sourceBody,
    position: byCreation,
  });
}

export async function handle(
  input: ListKnowledgeSourcesInput,
  ctx: HandlerContext,
): Promise<ListKnowledgeSourcesOutput> {
  return { status: 200, body: await listKnowledgeSources(ctx.deps, actorFrom(ctx), input.query) };
}
