import { revokeKeysCreatedBy } from '../../data/api-keys.ts';
import { deleteMembership } from '../../data/memberships.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { changeableMember, changeMembership } from './membership-change.ts';

/**
 * The member's keys are revoked with the membership, so they stay dead if the person is invited
 * back; the one membership invalidation makes every instance drop both before this returns.
 */
export async function removeMember(deps: Deps, actor: Actor, userId: string): Promise<void> {
  requireAdmin(actor);
  const member = await changeableMember(deps, actor.workspaceId, userId);
  await changeMembership(deps, actor.workspaceId, member.user_id, async (tx) => {
    await deleteMembership(tx, actor.workspaceId, member.user_id);
    const revoked = await revokeKeysCreatedBy(tx, actor.workspaceId, member.user_id, deps.clock.now());
    if (revoked.length) deps.log.info({ user_id: member.user_id, key_ids: revoked }, 'api keys of a removed member revoked');
  });
}
