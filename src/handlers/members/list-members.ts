import { findMembers } from './memberships-data.ts';
import type { Deps } from '../../deps.ts';
import type { ListMembersInput, ListMembersOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { memberBody } from './wire.ts';

export type ListMembersRequest = ListMembersInput['query'];

/** Every member may see who else belongs to the workspace; oldest first, strictly after the cursor. */
export function listMembers(deps: Deps, actor: Actor, request: ListMembersRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_members', actor.workspaceId),
    fetch: ({ limit, after }) => findMembers(deps.db.sql, actor.workspaceId, { limit, after }),
    toItem: memberBody,
    position: (row) => ({ at: row.created_at.toISOString(), id: row.user_id }),
  });
}

export async function handle(input: ListMembersInput, ctx: HandlerContext): Promise<ListMembersOutput> {
  return { status: 200, body: await listMembers(ctx.deps, actorFrom(ctx), input.query) };
}
