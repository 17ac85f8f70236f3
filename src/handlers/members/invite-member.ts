import type { InviteMemberInput, InviteMemberOutput } from '../../generated/handlers.ts';
import { inviteMember as invite } from './invite-member-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function inviteMember(input: InviteMemberInput, ctx: HandlerContext): Promise<InviteMemberOutput> {
  const { invitation, token } = await invite(ctx.deps, actorFrom(ctx), { email: input.body.email, role: input.body.role });
  return { status: 201, body: { id: invitation.id, email: invitation.email, role: invitation.role, expires_at: invitation.expires_at.toISOString(), token } };
}
