import type { AcceptInvitationAsMeInput, AcceptInvitationAsMeOutput } from '../../generated/handlers.ts';
import { acceptInvitationAsMe as accept } from '../../operations/members/accept-invitation-as-me.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { sessionBody } from '../users/body.ts';

export async function acceptInvitationAsMe(input: AcceptInvitationAsMeInput, ctx: HandlerContext): Promise<AcceptInvitationAsMeOutput> {
  const joined = await accept(ctx.deps, actorFrom(ctx), input.body.token);
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
