import type { UpdateMemberRoleInput, UpdateMemberRoleOutput } from '../../generated/handlers.ts';
import { updateMemberRole as update } from './update-member-role-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { memberBody } from './wire.ts';

export async function updateMemberRole(input: UpdateMemberRoleInput, ctx: HandlerContext): Promise<UpdateMemberRoleOutput> {
  const member = await update(ctx.deps, actorFrom(ctx), { userId: input.path.user_id, role: input.body.role });
  return { status: 200, body: memberBody(member) };
}
