import { ApiError } from '../../errors.ts';
import type { InviteMemberInput, InviteMemberOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { normaliseEmail } from '../users/shape.ts';
import { hashInvitationToken, INVITATION_TTL_MS, newInvitationToken } from './invitation-token.ts';

export async function inviteMember(input: InviteMemberInput, ctx: HandlerContext): Promise<InviteMemberOutput> {
  const principal = requireAdmin(ctx);
  const { sql, ids, clock, apiKeyPepper } = ctx.deps;
  const email = normaliseEmail(input.body.email);
  const [existing] = await sql`
    select 1 from memberships m join users u on u.id = m.user_id
    where m.workspace_id = ${principal.workspaceId} and lower(u.email) = lower(${email})`;
  if (existing) throw new ApiError('already_exists', 'This person is already a member of the workspace.');
  if (!principal.userId) throw new ApiError('forbidden', 'Invitations need a user behind the credential; this API key was minted by the operator CLI.');
  const token = newInvitationToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const id = ids.make('inv');
  await sql`
    insert into invitations (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
    values (${id}, ${principal.workspaceId}, ${email}, ${input.body.role}, ${hashInvitationToken(token, apiKeyPepper)},
            ${principal.userId}, ${now}, ${expiresAt})`;
  return { status: 201, body: { id, email, role: input.body.role, expires_at: expiresAt.toISOString(), token } };
}
