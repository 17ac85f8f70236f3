import type { RemoveMemberInput, RemoveMemberOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { changeMembership, findMember, refuseOwnerChange } from './shape.ts';

export async function removeMember(input: RemoveMemberInput, ctx: HandlerContext): Promise<RemoveMemberOutput> {
  const principal = requireAdmin(ctx);
  const member = await findMember(ctx, principal.workspaceId, input.path.user_id);
  refuseOwnerChange(member);
  await changeMembership(ctx, principal.workspaceId, member.user_id, async (tx) => {
    await tx`delete from memberships where workspace_id = ${principal.workspaceId} and user_id = ${member.user_id}`;
  });
  return { status: 204 };
}
