import type { ListWebinarsInput, ListWebinarsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { viewWebinars } from './webinar-record.ts';
import { listWebinarRows, type WebinarStatus } from './webinars-data.ts';
import { webinarBody, type WebinarView } from './wire.ts';

const statuses: readonly WebinarStatus[] = ['scheduled', 'cancelled'];

export async function listWebinars(deps: Deps, actor: Actor, request: { statuses: WebinarStatus[]; before?: { at: string; id: string }; limit: number }): Promise<WebinarView[]> {
  return viewWebinars(deps, actor.workspaceId, await listWebinarRows(deps.db.sql, actor.workspaceId, request));
}

export async function handle(input: ListWebinarsInput, ctx: HandlerContext): Promise<ListWebinarsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_webinars', actor.workspaceId);
  const views = await listWebinars(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, webinarBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}
