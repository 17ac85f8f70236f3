import { updateMemberRole as updateRoleRow, type MemberRow } from '../../data/memberships.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { changeableMember, changeMembership } from './membership-change.ts';

export async function updateMemberRole(deps: Deps, actor: Actor, request: { userId: string; role: 'admin' | 'member' }): Promise<MemberRow> {
  requireAdmin(actor);
  const member = await changeableMember(deps, actor.workspaceId, request.userId);
  if (member.role !== request.role) {
    await changeMembership(deps, actor.workspaceId, member.user_id, (tx) => updateRoleRow(tx, actor.workspaceId, member.user_id, request.role));
  }
  return { ...member, role: request.role };
}
