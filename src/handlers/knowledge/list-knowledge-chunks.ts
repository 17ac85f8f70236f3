import type { ListKnowledgeChunksInput, ListKnowledgeChunksOutput } from '../../generated/handlers.ts';
import { listChunks, type ChunkRow } from './knowledge-chunks-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope, type Position } from '../pagination.ts';
import { getKnowledgeSource } from './get-knowledge-source.ts';
import { chunkBody } from './wire.ts';

export type ListKnowledgeChunksRequest = ListKnowledgeChunksInput['query'];

// Chunks page in reading order; the cursor's timestamp slot carries the position (as milliseconds since 1970).
const byReadingOrder = (chunk: ChunkRow): Position => ({ at: new Date(chunk.position).toISOString(), id: chunk.id });

/** The source's current chunks in reading order; any member may, and a source of another workspace is a 404. */
export function listKnowledgeChunks(deps: Deps, actor: Actor, sourceId: string, request: ListKnowledgeChunksRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, `list_knowledge_chunks:${sourceId}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      await getKnowledgeSource(deps, actor, sourceId);
      return listChunks(deps.db.sql, actor.workspaceId, sourceId, {
        limit,
        after: after ? { position: Date.parse(after.at), id: after.id } : undefined,
      });
    },
    toItem: chunkBody,
    position: byReadingOrder,
  });
}

export async function handle(input: ListKnowledgeChunksInput, ctx: HandlerContext): Promise<ListKnowledgeChunksOutput> {
  return { status: 200, body: await listKnowledgeChunks(ctx.deps, actorFrom(ctx), input.path.source_id, input.query) };
}
