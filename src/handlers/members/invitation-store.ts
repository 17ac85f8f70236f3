// The two ways of accepting an invitation share these steps: find a valid invitation by its token
// (locked, so it is used once) and join its workspace with the invited role.
import type { TransactionSql } from 'postgres';
import { ApiError } from '../../errors.ts';
import type { WorkspaceRow } from '../users/shape.ts';
import { hashInvitationToken } from './invitation-token.ts';

export interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: 'admin' | 'member';
}

/** Locks the unexpired, unused invitation with this token until the transaction ends. */
export async function lockInvitation(tx: TransactionSql, token: string, pepper: Uint8Array, now: Date): Promise<InvitationRow> {
  const [invitation] = await tx<InvitationRow[]>`
    select id, workspace_id, email, role from invitations
    where token_hash = ${hashInvitationToken(token, pepper)} and accepted_at is null and expires_at > ${now}
    for update`;
  if (!invitation) throw new ApiError('not_found', 'This invitation is unknown, already used or expired; ask an admin for a new one.');
  return invitation;
}

/** Adds the user to the invitation's workspace and uses the invitation up. */
export async function joinWorkspace(tx: TransactionSql, invitation: InvitationRow, userId: string, now: Date): Promise<WorkspaceRow> {
  const joined = await tx`
    insert into memberships (workspace_id, user_id, role, created_at) values (${invitation.workspace_id}, ${userId}, ${invitation.role}, ${now})
    on conflict do nothing returning 1`;
  if (!joined.length) throw new ApiError('already_exists', 'You are already a member of this workspace.');
  await tx`update invitations set accepted_at = ${now} where id = ${invitation.id}`;
  const [workspace] = await tx<WorkspaceRow[]>`select id, name, created_at from workspaces where id = ${invitation.workspace_id}`;
  return workspace;
}
