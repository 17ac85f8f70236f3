import type { AcceptInvitationAsMeInput, AcceptInvitationAsMeOutput } from '../../generated/handlers.ts';
import { acceptInvitationAsMe as accept } from './accept-invitation-as-me-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { sessionBody } from '../users/body.ts';

export async function acceptInvitationAsMe(input: AcceptInvitationAsMeInput, ctx: HandlerContext): Promise<AcceptInvitationAsMeOutput> {
  // A person removed from their last workspace comes back with an account login (no workspace).
  const person = ctx.account ? { kind: 'user' as const, userId: ctx.account.userId } : actorFrom(ctx);
  const joined = await accept(ctx.deps, person, input.body.token);
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
