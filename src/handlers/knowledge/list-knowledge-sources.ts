import type { ListKnowledgeSourcesInput, ListKnowledgeSourcesOutput } from '../../generated/handlers.ts';
import { listSources, type SourceRow } from './knowledge-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { sourceBody } from './wire.ts';

/** A page of the workspace's sources, newest first; any member may. */
export function listKnowledgeSources(deps: Deps, actor: Actor, request: { limit: number; before?: PageBound }): Promise<SourceRow[]> {
  return listSources(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListKnowledgeSourcesInput, ctx: HandlerContext): Promise<ListKnowledgeSourcesOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_knowledge_sources', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await listKnowledgeSources(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, sourceBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
