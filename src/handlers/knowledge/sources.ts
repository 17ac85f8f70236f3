import type {
  DeleteKnowledgeSourceInput,
  DeleteKnowledgeSourceOutput,
  GetKnowledgeSourceInput,
  GetKnowledgeSourceOutput,
  ListKnowledgeChunksInput,
  ListKnowledgeChunksOutput,
  ListKnowledgeSourcesInput,
  ListKnowledgeSourcesOutput,
  SearchKnowledgeInput,
  SearchKnowledgeOutput,
} from '../../generated/handlers.ts';
import { searchKnowledge as search } from './search-knowledge.ts';
import { deleteKnowledgeSource as remove, getKnowledgeSource as get, listKnowledgeChunks as chunks, listKnowledgeSources as list } from './sources-logic.ts';
import { chunkBody, hitBody, sourceBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

export async function getKnowledgeSource(input: GetKnowledgeSourceInput, ctx: HandlerContext): Promise<GetKnowledgeSourceOutput> {
  return { status: 200, body: sourceBody(await get(ctx.deps, actorFrom(ctx), input.path.source_id)) };
}

export async function deleteKnowledgeSource(input: DeleteKnowledgeSourceInput, ctx: HandlerContext): Promise<DeleteKnowledgeSourceOutput> {
  return { status: 200, body: sourceBody(await remove(ctx.deps, actorFrom(ctx), input.path.source_id)) };
}

export async function listKnowledgeSources(input: ListKnowledgeSourcesInput, ctx: HandlerContext): Promise<ListKnowledgeSourcesOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_knowledge_sources', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await list(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, sourceBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}

export async function listKnowledgeChunks(input: ListKnowledgeChunksInput, ctx: HandlerContext): Promise<ListKnowledgeChunksOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_knowledge_chunks:${input.path.source_id}`, actor.workspaceId);
  // Chunks page in reading order; the cursor's timestamp slot carries the position (as milliseconds since 1970).
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await chunks(ctx.deps, actor, {
    sourceId: input.path.source_id,
    limit: limit + 1,
    after: after ? { position: Date.parse(after.at), id: after.id } : undefined,
  });
  return { status: 200, body: page(rows, limit, chunkBody, (r) => ({ at: new Date(r.position).toISOString(), id: r.id }), scope) };
}

export async function searchKnowledge(input: SearchKnowledgeInput, ctx: HandlerContext): Promise<SearchKnowledgeOutput> {
  const { query } = input;
  const hits = await search(ctx.deps, actorFrom(ctx), { query: query.query, sourceIds: commaList(query.source_ids, 'source_ids'), limit: query.limit ?? 10 });
  return { status: 200, body: { data: hits.map(hitBody) } };
}
