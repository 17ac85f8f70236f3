import type { RefreshKnowledgeSourceInput, RefreshKnowledgeSourceOutput } from '../../generated/handlers.ts';
import { refreshKnowledgeSource as refresh } from './refresh-source.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function refreshKnowledgeSource(input: RefreshKnowledgeSourceInput, ctx: HandlerContext): Promise<RefreshKnowledgeSourceOutput> {
  const row = await refresh(ctx.deps, actorFrom(ctx), input.path.source_id);
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
