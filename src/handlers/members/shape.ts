// Member rows and the membership changes shared by role updates and removal.
import { invalidateMembership } from '../../auth/invalidation.ts';
import { ApiError } from '../../errors.ts';
import type { HandlerContext } from '../context.ts';

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'member';
  created_at: Date;
}

export const memberBody = (m: MemberRow) => ({
  user_id: m.user_id,
  email: m.email,
  name: m.name,
  role: m.role,
  joined_at: m.created_at.toISOString(),
});

export async function findMember(ctx: HandlerContext, workspaceId: string, userId: string): Promise<MemberRow> {
  const [row] = await ctx.deps.sql<MemberRow[]>`
    select m.user_id, u.email, u.name, m.role, m.created_at
    from memberships m join users u on u.id = m.user_id
    where m.workspace_id = ${workspaceId} and m.user_id = ${userId}`;
  if (!row) throw new ApiError('not_found', 'No member with this id in your workspace.');
  return row;
}

export function refuseOwnerChange(member: MemberRow): void {
  if (member.role === 'owner') throw new ApiError('conflict', "The workspace owner's membership cannot be changed or removed.");
}

/**
 * Runs a membership change and makes every instance forget the cached membership before answering,
 * so the member's next request sees the change.
 */
export async function changeMembership(ctx: HandlerContext, workspaceId: string, userId: string, change: (tx: import('postgres').TransactionSql) => Promise<void>) {
  const invalidation = await ctx.deps.sql.begin(async (tx) => {
    await change(tx);
    return invalidateMembership(tx, workspaceId, userId);
  });
  await ctx.deps.authenticator.settle(invalidation);
}
