import type { UpdateMemberRoleInput, UpdateMemberRoleOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { changeMembership, findMember, memberBody, refuseOwnerChange } from './shape.ts';

export async function updateMemberRole(input: UpdateMemberRoleInput, ctx: HandlerContext): Promise<UpdateMemberRoleOutput> {
  const principal = requireAdmin(ctx);
  const member = await findMember(ctx, principal.workspaceId, input.path.user_id);
  refuseOwnerChange(member);
  const role = input.body.role;
  if (member.role !== role) {
    await changeMembership(ctx, principal.workspaceId, member.user_id, async (tx) => {
      await tx`update memberships set role = ${role} where workspace_id = ${principal.workspaceId} and user_id = ${member.user_id}`;
    });
  }
  return { status: 200, body: memberBody({ ...member, role }) };
}
