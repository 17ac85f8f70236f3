import type { ListOperationsInput, ListOperationsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { findOperations } from './operations-data.ts';
import { operationBody } from './wire.ts';

export type ListOperationsRequest = ListOperationsInput['query'];

/** The workspace's operations, newest first; any member may list them. */
export function listOperations(deps: Deps, actor: Actor, request: ListOperationsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_operations', actor.workspaceId),
    fetch: ({ limit, after }) =>
      findOperations(deps.db.sql, actor.workspaceId, { statuses: request.status ?? [], types: request.type ?? [], before: after, limit }),
    toItem: operationBody,
    position: byCreation,
  });
}

export async function handle(input: ListOperationsInput, ctx: HandlerContext): Promise<ListOperationsOutput> {
  return { status: 200, body: await listOperations(ctx.deps, actorFrom(ctx), input.query) };
}
