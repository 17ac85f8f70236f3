import { listConnectorRows } from './connectors-data.ts';
import type { ListConnectorsInput, ListConnectorsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { connectorBody } from './wire.ts';

export type ListConnectorsRequest = ListConnectorsInput['query'];

/** The workspace's connectors, connected or not, newest first. */
export function listConnectors(deps: Deps, actor: Actor, request: ListConnectorsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_connectors', actor.workspaceId),
    fetch: ({ limit, after }) => listConnectorRows(deps.db.sql, actor.workspaceId, { limit, before: after }),
    toItem: connectorBody,
    position: byCreation,
  });
}

export async function handle(input: ListConnectorsInput, ctx: HandlerContext): Promise<ListConnectorsOutput> {
  return { status: 200, body: await listConnectors(ctx.deps, actorFrom(ctx), input.query) };
}
