import type { GetKnowledgeSourceInput, GetKnowledgeSourceOutput } from '../../generated/handlers.ts';
import { findSource, type SourceRow } from './knowledge-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { sourceBody } from './wire.ts';

/** Any member of the workspace may read its sources. */
export async function getKnowledgeSource(deps: Deps, actor: Actor, sourceId: string): Promise<SourceRow> {
  const row = await findSource(deps.db.sql, actor.workspaceId, sourceId);
  if (!row) throw new ApiError('not_found', `No knowledge source ${sourceId} in this workspace.`);
  return row;
}

export async function handle(input: GetKnowledgeSourceInput, ctx: HandlerContext): Promise<GetKnowledgeSourceOutput> {
  return { status: 200, body: sourceBody(await getKnowledgeSource(ctx.deps, actorFrom(ctx), input.path.source_id)) };
}
