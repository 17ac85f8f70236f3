// Reading and deleting knowledge sources; any member of the workspace may.
import { deleteSource, findSource, listChunks, listSources, type ChunkRow, type SourceRow } from './knowledge-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { sourceBody } from './wire.ts';

const missing = (id: string) => new ApiError('not_found', `No knowledge source ${id} in this workspace.`);

export async function getKnowledgeSource(deps: Deps, actor: Actor, sourceId: string): Promise<SourceRow> {
  const row = await findSource(deps.db.sql, actor.workspaceId, sourceId);
  if (!row) throw missing(sourceId);
  return row;
}

export function listKnowledgeSources(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound }): Promise<SourceRow[]> {
  return listSources(deps.db.sql, actor.workspaceId, page);
}

/** Deletes the source and its chunks at once (a fetch still running then finds it gone and stops). */
export async function deleteKnowledgeSource(deps: Deps, actor: Actor, sourceId: string): Promise<SourceRow> {
  return deps.db.sql.begin(async (tx) => {
    const row = await deleteSource(tx, actor.workspaceId, sourceId);
    if (!row) throw missing(sourceId);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'knowledge_source.deleted', sourceBody(row));
    return row;
  });
}

export async function listKnowledgeChunks(deps: Deps, actor: Actor, request: { sourceId: string; limit: number; after?: { position: number; id: string } }): Promise<ChunkRow[]> {
  if (!(await findSource(deps.db.sql, actor.workspaceId, request.sourceId))) throw missing(request.sourceId);
  return listChunks(deps.db.sql, actor.workspaceId, request.sourceId, { limit: request.limit, after: request.after });
}
