import type { ListWebinarRegistrantsInput, ListWebinarRegistrantsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { mailOfRegistrants, type RegistrantMailRow } from './webinar-mail-data.ts';
import { requireWebinar } from './webinar-record.ts';
import { listRegistrants, type RegistrantRow, type RegistrantStatus } from './webinar-registrants-data.ts';
import { registrantBody } from './wire.ts';

const statuses: readonly RegistrantStatus[] = ['registered', 'removed'];

/** A page of registrants, and the mail of each (one query for the page). */
export async function listWebinarRegistrants(
  deps: Deps,
  actor: Actor,
  webinarId: string,
  request: { statuses: RegistrantStatus[]; after?: { at: string; id: string }; limit: number },
): Promise<{ rows: RegistrantRow[]; mail: RegistrantMailRow[] }> {
  await requireWebinar(deps.db.sql, actor.workspaceId, webinarId);
  const rows = await listRegistrants(deps.db.sql, actor.workspaceId, webinarId, request);
  return { rows, mail: await mailOfRegistrants(deps.db.sql, actor.workspaceId, rows.map((r) => r.id)) };
}

export async function handle(input: ListWebinarRegistrantsInput, ctx: HandlerContext): Promise<ListWebinarRegistrantsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_webinar_registrants:${input.path.webinar_id}`, actor.workspaceId);
  const { rows, mail } = await listWebinarRegistrants(ctx.deps, actor, input.path.webinar_id, {
    statuses: commaList(input.query.status, 'status', statuses),
    after: decodeCursor(input.query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, (r) => registrantBody(r, mail), (r) => ({ at: r.registered_at.toISOString(), id: r.id }), scope) };
}
