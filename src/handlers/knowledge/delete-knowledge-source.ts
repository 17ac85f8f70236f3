import type { DeleteKnowledgeSourceInput, DeleteKnowledgeSourceOutput } from '../../generated/handlers.ts';
import { deleteSource, type SourceRow } from './knowledge-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { sourceBody } from './wire.ts';

/** Any member may. Deletes the source and its chunks at once (a fetch still running then finds it gone and stops). */
export async function deleteKnowledgeSource(deps: Deps, actor: Actor, sourceId: string): Promise<SourceRow> {
  return deps.db.sql.begin(async (tx) => {
    const row = await deleteSource(tx, actor.workspaceId, sourceId);
    if (!row) throw new ApiError('not_found', `No knowledge source ${sourceId} in this workspace.`);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'knowledge_source.deleted', sourceBody(row));
    return row;
  });
}

export async function handle(
  input: DeleteKnowledgeSourceInput,
  ctx: HandlerContext,
): Promise<DeleteKnowledgeSourceOutput> {
  return { status: 200, body: sourceBody(await deleteKnowledgeSource(ctx.deps, actorFrom(ctx), input.path.source_id)) };
}
