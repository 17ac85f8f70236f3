import type { ListLeadsInput, ListLeadsOutput } from '../../generated/handlers.ts';
import { listLeadRows } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { leadBody } from './wire.ts';

export type ListLeadsRequest = ListLeadsInput['query'];

/** The workspace's leads, newest first; `q` matches email, names and company. Any member may. */
export function listLeads(deps: Deps, actor: Actor, request: ListLeadsRequest) {
  const filter = {
    q: request.q?.trim() || undefined,
    statuses: request.status ?? [],
    stages: request.stage ?? [],
    tag: request.tag,
    importId: request.import_id,
    createdAfter: request.created_after === undefined ? undefined : new Date(request.created_after),
    createdBefore: request.created_before === undefined ? undefined : new Date(request.created_before),
  };
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_leads', actor.workspaceId),
    fetch: ({ limit, after }) => listLeadRows(deps.db.sql, actor.workspaceId, { ...filter, before: after, limit }),
    toItem: leadBody,
    position: byCreation,
  });
}

export async function handle(input: ListLeadsInput, ctx: HandlerContext): Promise<ListLeadsOutput> {
  return { status: 200, body: await listLeads(ctx.deps, actorFrom(ctx), input.query) };
}
