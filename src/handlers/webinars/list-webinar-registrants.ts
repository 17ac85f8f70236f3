import type { ListWebinarRegistrantsInput, ListWebinarRegistrantsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { mailOfRegistrants } from './webinar-mail-data.ts';
import { requireWebinar } from './webinar-record.ts';
import { listRegistrants } from './webinar-registrants-data.ts';
import { registrantBody } from './wire.ts';

export type ListWebinarRegistrantsRequest = ListWebinarRegistrantsInput['query'] & { webinarId: string };

/**
 * A webinar's registrants, oldest first, each with their mail (one query for the page); 404 for a webinar
 * outside the workspace (after the cursor is checked).
 */
export function listWebinarRegistrants(deps: Deps, actor: Actor, request: ListWebinarRegistrantsRequest) {
  const sql = deps.db.sql;
  return listPage(request, {
    scope: cursorScope(deps.auth, `list_webinar_registrants:${request.webinarId}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      await requireWebinar(sql, actor.workspaceId, request.webinarId);
      const rows = await listRegistrants(sql, actor.workspaceId, request.webinarId, {
        statuses: request.status ?? [],
        after,
        limit,
      });
      const mail = await mailOfRegistrants(
        sql,
        actor.workspaceId,
        rows.map((r) => r.id),
      );
      return rows.map((row) => ({ row, mail }));
    },
    toItem: ({ row, mail }) => registrantBody(row, mail),
    position: ({ row }) => ({ at: row.registered_at.toISOString(), id: row.id }),
  });
}

export async function handle(
  input: ListWebinarRegistrantsInput,
  ctx: HandlerContext,
): Promise<ListWebinarRegistrantsOutput> {
  return {
    status: 200,
    body: await listWebinarRegistrants(ctx.deps, actorFrom(ctx), { ...input.query, webinarId: input.path.webinar_id }),
  };
}
