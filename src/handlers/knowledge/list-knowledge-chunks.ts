import type { ListKnowledgeChunksInput, ListKnowledgeChunksOutput } from '../../generated/handlers.ts';
import { listChunks, type ChunkRow } from './knowledge-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { getKnowledgeSource } from './get-knowledge-source.ts';
import { chunkBody } from './wire.ts';

export interface ListKnowledgeChunksRequest {
  sourceId: string;
  limit: number;
  after?: { position: number; id: string };
}

/** A page of the source's current chunks in reading order; a source of another workspace is a 404. */
export async function listKnowledgeChunks(deps: Deps, actor: Actor, request: ListKnowledgeChunksRequest): Promise<ChunkRow[]> {
  await getKnowledgeSource(deps, actor, request.sourceId);
  return listChunks(deps.db.sql, actor.workspaceId, request.sourceId, { limit: request.limit, after: request.after });
}

export async function handle(input: ListKnowledgeChunksInput, ctx: HandlerContext): Promise<ListKnowledgeChunksOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_knowledge_chunks:${input.path.source_id}`, actor.workspaceId);
  // Chunks page in reading order; the cursor's timestamp slot carries the position (as milliseconds since 1970).
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await listKnowledgeChunks(ctx.deps, actor, {
    sourceId: input.path.source_id,
    limit: limit + 1,
    after: after ? { position: Date.parse(after.at), id: after.id } : undefined,
  });
  return { status: 200, body: page(rows, limit, chunkBody, (r) => ({ at: new Date(r.position).toISOString(), id: r.id }), scope) };
}
