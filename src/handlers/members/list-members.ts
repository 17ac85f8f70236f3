import { listMemberRows, type MemberRow } from './memberships-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { ListMembersInput, ListMembersOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { memberBody } from './wire.ts';

/** Every member may see who else belongs to the workspace; oldest first, strictly after `after`. */
export function listMembers(deps: Deps, actor: Actor, request: { limit: number; after?: PageBound }): Promise<MemberRow[]> {
  return listMemberRows(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListMembersInput, ctx: HandlerContext): Promise<ListMembersOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_members', actor.workspaceId);
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await listMembers(ctx.deps, actor, { limit: limit + 1, after });
  return { status: 200, body: page(rows, limit, memberBody, (r) => ({ at: r.created_at.toISOString(), id: r.user_id }), scope) };
}
