import type { AcceptInvitationInput, AcceptInvitationOutput } from '../../generated/handlers.ts';
import { acceptInvitation as accept } from './accept-invitation-logic.ts';
import type { HandlerContext } from '../context.ts';
import { sessionBody } from '../users/body.ts';

export async function acceptInvitation(input: AcceptInvitationInput, ctx: HandlerContext): Promise<AcceptInvitationOutput> {
  const joined = await accept(ctx.deps, { token: input.body.token, name: input.body.name, password: input.body.password });
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
