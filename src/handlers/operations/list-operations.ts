import type { OperationStatus } from './operations-data.ts';
import type { ListOperationsInput, ListOperationsOutput } from '../../generated/handlers.ts';
import { listOperations as list } from './list-operations-logic.ts';
import { operationBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly OperationStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export async function listOperations(input: ListOperationsInput, ctx: HandlerContext): Promise<ListOperationsOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_operations', actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await list(ctx.deps, actor, {
    statuses: commaList(query.status, 'status', statuses),
    types: commaList(query.type, 'type'),
    before,
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, operationBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
