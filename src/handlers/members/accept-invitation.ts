import { ApiError } from '../../errors.ts';
import type { AcceptInvitationInput, AcceptInvitationOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { sessionBody, type UserRow } from '../users/shape.ts';
import { joinWorkspace, lockInvitation } from './invitation-store.ts';

/**
 * The public path creates new accounts only. For an email that already has an account it answers
 * the same whatever the password and checks none: whoever holds an invitation (the inviting admin,
 * too) must not be able to test that account's password here. The invitee logs in, then accepts
 * with accept_invitation_as_me; the password is checked by login, under its throttle.
 */
const accountExists = () =>
  new ApiError('account_exists', 'An account with this email already exists: log in, then accept the invitation with your credential (accept_invitation_as_me).');

export async function acceptInvitation(input: AcceptInvitationInput, ctx: HandlerContext): Promise<AcceptInvitationOutput> {
  const { sql, clock, ids, apiKeyPepper, passwords } = ctx.deps;
  // Hashing checks the length first and throws before any work on an over-long password.
  const passwordHash = await passwords.hashPassword(input.body.password);
  const now = clock.now();
  const { user, workspace, role } = await sql.begin(async (tx) => {
    const invitation = await lockInvitation(tx, input.body.token, apiKeyPepper, now);
    const [existing] = await tx`select 1 from users where lower(email) = lower(${invitation.email})`;
    if (existing) throw accountExists();
    const [user] = await tx<UserRow[]>`
      insert into users (id, email, name, password_hash, created_at)
      values (${ids.make('usr')}, ${invitation.email}, ${input.body.name}, ${passwordHash}, ${now})
      returning id, email, name, created_at`;
    const workspace = await joinWorkspace(tx, invitation, user.id, now);
    return { user, workspace, role: invitation.role };
  });
  return { status: 201, body: await sessionBody(ctx, user, workspace, role) };
}
