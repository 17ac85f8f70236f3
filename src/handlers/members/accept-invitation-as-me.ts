import { findUserByEmail } from '../users/users-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { AcceptInvitationAsMeInput, AcceptInvitationAsMeOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { sessionBody, type JoinedWorkspace } from '../users/session.ts';
import { joinWorkspace, lockInvitation } from './invitation-acceptance.ts';

/**
 * An existing account accepts as itself: its login proves who it is, so no password is checked
 * here. Only a person can accept: a key or the operator acts for a workspace, not for someone. The
 * login may name a workspace or none (a person removed from their last workspace).
 */
export async function acceptInvitationAsMe(
  deps: Deps,
  actor: Pick<Actor, 'kind' | 'userId'>,
  token: string,
): Promise<JoinedWorkspace> {
  if (actor.kind !== 'user' || !actor.userId) {
    throw new ApiError(
      'forbidden',
      'Only the invited person can accept, with their login (a JWT from login); API keys cannot accept invitations.',
    );
  }
  const userId = actor.userId;
  const now = deps.clock.now();
  return deps.db.sql.begin(async (tx) => {
    const invitation = await lockInvitation(deps, tx, token, now);
    const user = await findUserByEmail(tx, invitation.email);
    if (!user || user.id !== userId) {
      throw new ApiError(
        'forbidden',
        'This invitation is for another email address; log in as the invited person to accept it.',
      );
    }
    return joinWorkspace(deps, tx, invitation, user, now);
  });
}

export async function handle(
  input: AcceptInvitationAsMeInput,
  ctx: HandlerContext,
): Promise<AcceptInvitationAsMeOutput> {
  // A person removed from their last workspace comes back with an account login (no workspace).
  const person = ctx.account ? { kind: 'user' as const, userId: ctx.account.userId } : actorFrom(ctx);
  const joined = await acceptInvitationAsMe(ctx.deps, person, input.body.token);
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
