import { listConnectorRows, type ConnectorRow } from './connectors-data.ts';
import type { ListConnectorsInput, ListConnectorsOutput } from '../../generated/handlers.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { connectorBody } from './wire.ts';

export function listConnectors(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound; provider?: string }): Promise<ConnectorRow[]> {
  return listConnectorRows(deps.db.sql, actor.workspaceId, page);
}

export async function handle(input: ListConnectorsInput, ctx: HandlerContext): Promise<ListConnectorsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_connectors', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await listConnectors(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, connectorBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
