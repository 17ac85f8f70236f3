import type { ListWebinarsInput, ListWebinarsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { viewWebinars } from './webinar-record.ts';
import { listWebinarRows } from './webinars-data.ts';
import { webinarBody } from './wire.ts';

export type ListWebinarsRequest = ListWebinarsInput['query'];

/** The workspace's webinars, newest first, with their registrant and mail counts. */
export function listWebinars(deps: Deps, actor: Actor, request: ListWebinarsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_webinars', actor.workspaceId),
    fetch: async ({ limit, after }) =>
      viewWebinars(
        deps,
        actor.workspaceId,
        await listWebinarRows(deps.db.sql, actor.workspaceId, { statuses: request.status ?? [], before: after, limit }),
      ),
    toItem: webinarBody,
    position: (view) => byCreation(view.row),
  });
}

export async function handle(input: ListWebinarsInput, ctx: HandlerContext): Promise<ListWebinarsOutput> {
  return { status: 200, body: await listWebinars(ctx.deps, actorFrom(ctx), input.query) };
}
