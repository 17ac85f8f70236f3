import type { ListLeadsInput, ListLeadsOutput } from '../../generated/handlers.ts';
import { listLeadRows, type LeadFilter, type LeadRow, type LeadStatus } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { leadBody } from './wire.ts';

const statuses: readonly LeadStatus[] = ['active', 'unsubscribed', 'bounced', 'do_not_contact'];

/** A page of the workspace's leads, newest first; any member may. */
export function listLeads(deps: Deps, actor: Actor, filter: LeadFilter): Promise<LeadRow[]> {
  return listLeadRows(deps.db.sql, actor.workspaceId, filter);
}

export async function handle(input: ListLeadsInput, ctx: HandlerContext): Promise<ListLeadsOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_leads', actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await listLeads(ctx.deps, actor, {
    q: query.q?.trim() || undefined,
    statuses: commaList(query.status, 'status', statuses),
    tag: query.tag,
    importId: query.import_id,
    createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after),
    createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before),
    before,
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, leadBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
