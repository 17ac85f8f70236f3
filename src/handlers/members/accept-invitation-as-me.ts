import { ApiError } from '../../errors.ts';
import type { AcceptInvitationAsMeInput, AcceptInvitationAsMeOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { sessionBody, type UserRow } from '../users/shape.ts';
import { joinWorkspace, lockInvitation } from './invitation-store.ts';

/**
 * An existing account accepts with its own login: the JWT proves who the caller is, so no password
 * is checked here. API keys cannot accept: a key acts for a workspace, not for a person.
 */
export async function acceptInvitationAsMe(input: AcceptInvitationAsMeInput, ctx: HandlerContext): Promise<AcceptInvitationAsMeOutput> {
  const principal = requirePrincipal(ctx);
  if (principal.kind !== 'jwt') throw new ApiError('forbidden', 'Only the invited person can accept, with their login (a JWT from login); API keys cannot accept invitations.');
  const { sql, clock, apiKeyPepper } = ctx.deps;
  const now = clock.now();
  const { user, workspace, role } = await sql.begin(async (tx) => {
    const invitation = await lockInvitation(tx, input.body.token, apiKeyPepper, now);
    // Compared as the unique index on users compares emails.
    const [user] = await tx<UserRow[]>`
      select id, email, name, created_at from users where id = ${principal.userId} and lower(email) = lower(${invitation.email})`;
    if (!user) {
      throw new ApiError('forbidden', 'This invitation is for another email address; log in as the invited person to accept it.');
    }
    const workspace = await joinWorkspace(tx, invitation, user.id, now);
    return { user, workspace, role: invitation.role };
  });
  return { status: 201, body: await sessionBody(ctx, user, workspace, role) };
}
