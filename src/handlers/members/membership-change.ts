// Role updates and removals share these steps: find the member, refuse to touch the owner, and make
// every instance forget the cached membership before answering, so the member's next request sees it.
import type { TransactionSql } from 'postgres';
import { invalidateMembership } from '../../auth/invalidation.ts';
import { findMember, type MemberRow } from './memberships-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';

export async function changeableMember(deps: Deps, workspaceId: string, userId: string): Promise<MemberRow> {
  const member = await findMember(deps.db.sql, workspaceId, userId);
  if (!member) throw new ApiError('not_found', 'No member with this id in your workspace.');
  if (member.role === 'owner')
    throw new ApiError('conflict', "The workspace owner's membership cannot be changed or removed.");
  return member;
}

export async function changeMembership(
  deps: Deps,
  workspaceId: string,
  userId: string,
  change: (tx: TransactionSql) => Promise<void>,
): Promise<void> {
  const invalidation = await deps.db.sql.begin(async (tx) => {
    await change(tx);
    return invalidateMembership(tx, workspaceId, userId);
  });
  await deps.auth.authenticator.settle(invalidation);
}
