import { setMemberRole, type MemberRow } from './memberships-data.ts';
import type { Deps } from '../../deps.ts';
import type { UpdateMemberRoleInput, UpdateMemberRoleOutput } from '../../generated/handlers.ts';
// Events carry the resource as the API shows it, so the wire shape is shared with the handler.
import { memberBody } from './wire.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { changeableMember, changeMembership } from './membership-change.ts';

export async function updateMemberRole(
  deps: Deps,
  actor: Actor,
  request: { userId: string; role: 'admin' | 'member' },
): Promise<MemberRow> {
  requireAdmin(actor);
  const member = await changeableMember(deps, actor.workspaceId, request.userId);
  const updated = { ...member, role: request.role };
  // Setting the role a member already has changes nothing and records nothing.
  if (member.role !== request.role) {
    await changeMembership(deps, actor.workspaceId, member.user_id, async (tx) => {
      await setMemberRole(tx, actor.workspaceId, member.user_id, request.role);
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'member.role_changed', {
        ...memberBody(updated),
        previous_role: member.role,
      });
    });
  }
  return updated;
}

export async function handle(input: UpdateMemberRoleInput, ctx: HandlerContext): Promise<UpdateMemberRoleOutput> {
  const member = await updateMemberRole(ctx.deps, actorFrom(ctx), {
    userId: input.path.user_id,
    role: input.body.role,
  });
  return { status: 200, body: memberBody(member) };
}
