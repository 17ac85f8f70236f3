import type { ListMembersInput, ListMembersOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { memberBody, type MemberRow } from './shape.ts';

export async function listMembers(input: ListMembersInput, ctx: HandlerContext): Promise<ListMembersOutput> {
  const principal = requirePrincipal(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps, 'list_members', principal.workspaceId);
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await ctx.deps.sql<MemberRow[]>`
    select m.user_id, u.email, u.name, m.role, m.created_at
    from memberships m join users u on u.id = m.user_id
    where m.workspace_id = ${principal.workspaceId}
      ${after ? ctx.deps.sql`and (m.created_at, m.user_id) > (${after.at}::timestamptz, ${after.id})` : ctx.deps.sql``}
    order by m.created_at, m.user_id
    limit ${limit + 1}`;
  const body = page(rows, limit, memberBody, (r) => ({ at: r.created_at.toISOString(), id: r.user_id }), scope);
  return { status: 200, body };
}
