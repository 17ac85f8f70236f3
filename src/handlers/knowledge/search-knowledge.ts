import type { SearchKnowledgeInput, SearchKnowledgeOutput } from '../../generated/handlers.ts';
import { knownSourceIds } from './knowledge-data.ts';
import { searchChunks, type SearchHit } from './knowledge-chunks-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { commaList } from '../query-lists.ts';
import { hitBody } from './wire.ts';

const SOURCE_ID = /^ks_[0-9a-z]{26}$/;

/** Ranked chunks of the workspace's current knowledge; naming a source of another workspace is a 404. */
export async function searchKnowledge(
  deps: Deps,
  actor: Actor,
  request: { query: string; sourceIds: string[]; limit: number },
): Promise<SearchHit[]> {
  const sourceIds = [...new Set(request.sourceIds)];
  // One lookup for every well-formed id; the loop then answers, in order, what one lookup per id answered.
  const known = await knownSourceIds(
    deps.db.sql,
    actor.workspaceId,
    sourceIds.filter((id) => SOURCE_ID.test(id)),
  );
  for (const id of sourceIds) {
    if (!SOURCE_ID.test(id)) {
      throw new ApiError('validation_failed', `"${id}" is not a knowledge source id.`, {
        errors: [{ field: 'query.source_ids', code: 'invalid_id', message: 'comma-separated ks_… ids' }],
      });
    }
    if (!known.has(id)) throw new ApiError('not_found', `No knowledge source ${id} in this workspace.`);
  }
  const query = request.query.trim();
  if (!query)
    throw new ApiError('validation_failed', 'The query is empty.', {
      errors: [{ field: 'query.query', code: 'empty', message: 'a few words to search for' }],
    });
  return searchChunks(deps.db.sql, actor.workspaceId, { query, sourceIds, limit: request.limit });
}

export async function handle(input: SearchKnowledgeInput, ctx: HandlerContext): Promise<SearchKnowledgeOutput> {
  const { query } = input;
  const hits = await searchKnowledge(ctx.deps, actorFrom(ctx), {
    query: query.query,
    sourceIds: commaList(query.source_ids, 'source_ids'),
    limit: query.limit,
  });
  return { status: 200, body: { data: hits.map(hitBody) } };
}
