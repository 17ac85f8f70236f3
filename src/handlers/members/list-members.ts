import type { ListMembersInput, ListMembersOutput } from '../../generated/handlers.ts';
import { listMembers as list } from './list-members-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { memberBody } from './wire.ts';

export async function listMembers(input: ListMembersInput, ctx: HandlerContext): Promise<ListMembersOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_members', actor.workspaceId);
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await list(ctx.deps, actor, { limit: limit + 1, after });
  return { status: 200, body: page(rows, limit, memberBody, (r) => ({ at: r.created_at.toISOString(), id: r.user_id }), scope) };
}
