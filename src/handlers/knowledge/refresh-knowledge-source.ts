import type { RefreshKnowledgeSourceInput, RefreshKnowledgeSourceOutput } from '../../generated/handlers.ts';
import { findSource, queueRefresh } from './knowledge-data.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { startOperation } from '../operations/operation-job.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { ingestUrlIntoKnowledgeJob } from './ingest-job.ts';

/** Fetches the source again; one fetch at a time per source (409 while one is queued or running). */
export async function refreshKnowledgeSource(deps: Deps, actor: Actor, sourceId: string): Promise<OperationRow> {
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    // Longer than the ingest job's expiry: by then its run is over, whatever happened to it.
    const queued = await queueRefresh(
      tx,
      actor.workspaceId,
      sourceId,
      now,
      new Date(now.getTime() - (ingestUrlIntoKnowledgeJob.expireInSeconds + 300) * 1000),
    );
    if (!queued) {
      const source = await findSource(tx, actor.workspaceId, sourceId);
      if (!source) throw new ApiError('not_found', `No knowledge source ${sourceId} in this workspace.`);
      throw new ApiError(
        'conflict',
        `Knowledge source ${sourceId} is already being fetched (status ${source.status}); follow its operation.`,
      );
    }
    return startOperation(deps, tx, actor, {
      kind: ingestUrlIntoKnowledgeJob,
      input: { source_id: sourceId },
      resource: { type: 'knowledge_source', id: sourceId },
      progressTotal: queued.max_pages,
    });
  });
  afterCommit();
  return row;
}

export async function handle(
  input: RefreshKnowledgeSourceInput,
  ctx: HandlerContext,
): Promise<RefreshKnowledgeSourceOutput> {
  const row = await refreshKnowledgeSource(ctx.deps, actorFrom(ctx), input.path.source_id);
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
