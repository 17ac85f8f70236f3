import { revokeKeysCreatedBy } from '../api-keys/api-keys-data.ts';
import { deleteMembership } from './memberships-data.ts';
import type { Deps } from '../../deps.ts';
import type { RemoveMemberInput, RemoveMemberOutput } from '../../generated/handlers.ts';
// Events carry the resources as the API shows them, so the wire shapes are shared with the handlers.
import { apiKeyBody } from '../api-keys/wire.ts';
import { memberBody } from './wire.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
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
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'member.removed', memberBody(member));
    const revoked = await revokeKeysCreatedBy(tx, actor.workspaceId, member.user_id, deps.clock.now());
    for (const key of revoked)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'api_key.revoked', apiKeyBody(key));
    if (revoked.length)
      deps.log.info(
        { user_id: member.user_id, key_ids: revoked.map((k) => k.id) },
        'api keys of a removed member revoked',
      );
  });
}

export async function handle(input: RemoveMemberInput, ctx: HandlerContext): Promise<RemoveMemberOutput> {
  await removeMember(ctx.deps, actorFrom(ctx), input.path.user_id);
  return { status: 204 };
}
