import { findUserByEmail, insertUser } from '../users/users-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { AcceptInvitationInput, AcceptInvitationOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { sessionBody, type JoinedWorkspace } from '../users/session.ts';
import { joinWorkspace, lockInvitation } from './invitation-acceptance.ts';

/**
 * The public path creates new accounts only. For an email that already has an account it answers
 * the same whatever the password and checks none: whoever holds an invitation (the inviting admin,
 * too) must not be able to test that account's password here. The invitee logs in, then accepts
 * with accept_invitation_as_me; the password is checked by login, under its throttle.
 */
const accountExists = () =>
  new ApiError(
    'account_exists',
    'An account with this email already exists: log in, then accept the invitation with your credential (accept_invitation_as_me).',
  );

export async function acceptInvitation(
  deps: Deps,
  request: { token: string; name: string; password: string },
): Promise<JoinedWorkspace> {
  // Hashing checks the length first and throws before any work on an over-long password.
  const passwordHash = await deps.auth.passwords.hashPassword(request.password);
  const now = deps.clock.now();
  return deps.db.sql.begin(async (tx) => {
    const invitation = await lockInvitation(deps, tx, request.token, now);
    if (await findUserByEmail(tx, invitation.email)) throw accountExists();
    const user = await insertUser(tx, deps.ids, { email: invitation.email, name: request.name, passwordHash, now });
    if (!user) throw accountExists();
    return joinWorkspace(deps, tx, invitation, user, now);
  });
}

export async function handle(input: AcceptInvitationInput, ctx: HandlerContext): Promise<AcceptInvitationOutput> {
  const joined = await acceptInvitation(ctx.deps, {
    token: input.body.token,
    name: input.body.name,
    password: input.body.password,
  });
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
