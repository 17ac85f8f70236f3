import type { ListConnectorsInput, ListConnectorsOutput } from '../../generated/handlers.ts';
import { listConnectors as list } from './list-connectors-logic.ts';
import { connectorBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';

export async function listConnectors(input: ListConnectorsInput, ctx: HandlerContext): Promise<ListConnectorsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_connectors', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await list(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, connectorBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
