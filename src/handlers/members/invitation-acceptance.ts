// The two ways of accepting an invitation share these steps: find a valid invitation by its token
// (locked, so it is used once) and join its workspace with the invited role.
import type { TransactionSql } from 'postgres';
import { lockOpenInvitationByTokenHash, markInvitationAccepted, type InvitationRow } from './invitations-data.ts';
import { insertMembership } from './memberships-data.ts';
import type { UserRow } from '../users/users-data.ts';
import { findWorkspace } from '../users/workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
// Events carry the resource as the API shows it, so the wire shape is shared with the handler.
import { memberBody } from './wire.ts';
import { recordEvent } from '../events/record-event.ts';
import type { JoinedWorkspace } from '../users/session.ts';
import { hashInvitationToken } from './invitation-token.ts';

/** Locks the unexpired, unused invitation with this token until the transaction ends. */
export async function lockInvitation(deps: Deps, tx: TransactionSql, token: string, now: Date): Promise<InvitationRow> {
  const invitation = await lockOpenInvitationByTokenHash(tx, hashInvitationToken(token, deps.auth.apiKeyPepper), now);
  if (!invitation)
    throw new ApiError('not_found', 'This invitation is unknown, already used or expired; ask an admin for a new one.');
  return invitation;
}

/** Adds the user to the invitation's workspace, uses the invitation up and records `member.added` by the joining user. */
export async function joinWorkspace(
  deps: Deps,
  tx: TransactionSql,
  invitation: InvitationRow,
  user: UserRow,
  now: Date,
): Promise<JoinedWorkspace> {
  const joined = await insertMembership(tx, invitation.workspace_id, { userId: user.id, role: invitation.role, now });
  if (!joined) throw new ApiError('already_exists', 'You are already a member of this workspace.');
  await markInvitationAccepted(tx, invitation.workspace_id, invitation.id, now);
  const member = { user_id: user.id, email: user.email, name: user.name, role: invitation.role, created_at: now };
  await recordEvent(
    deps,
    tx,
    invitation.workspace_id,
    { type: 'user', id: user.id },
    'member.added',
    memberBody(member),
  );
  const workspace = await findWorkspace(tx, invitation.workspace_id);
  if (!workspace) throw new Error(`invitation ${invitation.id} names a missing workspace`);
  return { user, workspace, role: invitation.role };
}
