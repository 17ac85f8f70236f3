import type { RemoveMemberInput, RemoveMemberOutput } from '../../generated/handlers.ts';
import { revokeKeysCreatedBy } from '../api-keys/store.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { changeMembership, findMember, refuseOwnerChange } from './shape.ts';

/**
 * The member's keys are revoked with the membership, so they stay dead if the person is invited
 * back; the one membership invalidation makes every instance drop both before this answers.
 */
export async function removeMember(input: RemoveMemberInput, ctx: HandlerContext): Promise<RemoveMemberOutput> {
  const principal = requireAdmin(ctx);
  const member = await findMember(ctx, principal.workspaceId, input.path.user_id);
  refuseOwnerChange(member);
  await changeMembership(ctx, principal.workspaceId, member.user_id, async (tx) => {
    await tx`delete from memberships where workspace_id = ${principal.workspaceId} and user_id = ${member.user_id}`;
    const revoked = await revokeKeysCreatedBy(tx, ctx.deps.clock, principal.workspaceId, member.user_id);
    if (revoked.length) ctx.deps.log.info({ user_id: member.user_id, key_ids: revoked }, 'api keys of a removed member revoked');
  });
  return { status: 204 };
}
