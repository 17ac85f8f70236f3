import type { ListEventsInput, ListEventsOutput } from '../../generated/handlers.ts';
import { requireAdmin } from '../actor.ts';
import { listEvents as list } from './list-events-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { eventBody } from './wire.ts';

export async function listEvents(input: ListEventsInput, ctx: HandlerContext): Promise<ListEventsOutput> {
  const actor = actorFrom(ctx);
  // Checked before the cursor too, so a member learns nothing from how their cursor is judged.
  requireAdmin(actor);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_events', actor.workspaceId);
  const after = decodeCursor(query.cursor, scope);
  const rows = await list(ctx.deps, actor, {
    types: query.type ? query.type.split(',') : [],
    createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after),
    createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before),
    after,
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, eventBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
