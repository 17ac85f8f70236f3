import { insertInvitation, type InvitationRow, type InvitedRole } from './invitations-data.ts';
import { findMemberByEmail } from './memberships-data.ts';
import { normaliseEmail } from '../../auth/normalise-email.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { InviteMemberInput, InviteMemberOutput } from '../../generated/handlers.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { hashInvitationToken, INVITATION_TTL_MS, newInvitationToken } from './invitation-token.ts';

/** Invites an email; the one-time token is in the result and stored only as a peppered HMAC. */
export async function inviteMember(
  deps: Deps,
  actor: Actor,
  request: { email: string; role: InvitedRole },
): Promise<{ invitation: InvitationRow; token: string }> {
  requireAdmin(actor);
  const email = normaliseEmail(request.email);
  if (await findMemberByEmail(deps.db.sql, actor.workspaceId, email))
    throw new ApiError('already_exists', 'This person is already a member of the workspace.');
  if (!actor.userId)
    throw new ApiError(
      'forbidden',
      'Invitations need a user behind the credential; this API key was minted by the operator CLI.',
    );
  const token = newInvitationToken();
  const now = deps.clock.now();
  const invitation = await insertInvitation(deps.db.sql, actor.workspaceId, deps.ids, {
    email,
    role: request.role,
    tokenHash: hashInvitationToken(token, deps.auth.apiKeyPepper),
    invitedBy: actor.userId,
    now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
  });
  return { invitation, token };
}

export async function handle(input: InviteMemberInput, ctx: HandlerContext): Promise<InviteMemberOutput> {
  const { invitation, token } = await inviteMember(ctx.deps, actorFrom(ctx), {
    email: input.body.email,
    role: input.body.role,
  });
  return {
    status: 201,
    body: {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      expires_at: invitation.expires_at.toISOString(),
      token,
    },
  };
}
