// The invitations table. Created within a workspace; found by the hash of its one-time token,
// which is how an invitee (who belongs to no workspace yet) names it.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type InvitedRole = 'admin' | 'member';

export interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: InvitedRole;
  expires_at: Date;
}

const columns = (q: Queryable) => query(q)`id, workspace_id, email, role, expires_at`;

export interface NewInvitation {
  email: string;
  role: InvitedRole;
  tokenHash: string;
  invitedBy: string;
  now: Date;
  expiresAt: Date;
}

export async function insertInvitation(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: NewInvitation,
): Promise<InvitationRow> {
  const [row] = await query(q)<InvitationRow[]>`
    insert into invitations (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
    values (${ids.make('inv')}, ${workspaceId}, ${fields.email}, ${fields.role}, ${fields.tokenHash}, ${fields.invitedBy}, ${fields.now}, ${fields.expiresAt})
    returning ${columns(q)}`;
  return row;
}

/** Locks the unexpired, unused invitation with this token hash until the transaction ends. */
export async function lockOpenInvitationByTokenHash(
  q: Queryable,
  tokenHash: string,
  now: Date,
): Promise<InvitationRow | undefined> {
  const [row] = await query(q)<InvitationRow[]>`
    select ${columns(q)} from invitations
    where token_hash = ${tokenHash} and accepted_at is null and expires_at > ${now}
    for update`;
  return row;
}

export async function markInvitationAccepted(
  q: Queryable,
  workspaceId: string,
  invitationId: string,
  now: Date,
): Promise<void> {
  await query(
    q,
  )`update invitations set accepted_at = ${now} where workspace_id = ${workspaceId} and id = ${invitationId}`;
}
