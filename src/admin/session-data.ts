// The admin_sessions table (migration 0023): the panel's refresh sessions, each stored by the sha256 of its
// cookie's token. A session is alive while it is unexpired, its membership exists (the row is deleted with it)
// and its user's password_version is the one it started with (changing the password ends it).
import { query, type Queryable } from '../db/queryable.ts';

export interface AdminSessionRow {
  id: string;
  workspace_id: string;
  user_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  /** The token presented is the session's current one (false: the one it replaced). */
  current: boolean;
  /** Unexpired, and the user's password unchanged since sign-in. */
  alive: boolean;
}

/** Starts a session for a member; their expired or password-dead sessions in the workspace go with it. */
export async function insertSession(
  q: Queryable,
  workspaceId: string,
  fields: { id: string; userId: string; tokenHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await query(q)`
    delete from admin_sessions s using users u
    where s.workspace_id = ${workspaceId} and s.user_id = ${fields.userId} and u.id = s.user_id
      and (s.expires_at <= ${fields.now} or s.password_version <> u.password_version)`;
  await query(q)`
    insert into admin_sessions
      (id, workspace_id, user_id, token_hash, password_version, created_at, last_used_at, expires_at)
    select ${fields.id}, ${workspaceId}, u.id, ${fields.tokenHash}, u.password_version, ${fields.now}, ${fields.now},
      ${fields.expiresAt}
    from users u where u.id = ${fields.userId}`;
}

/**
 * The session a cookie's token names, as its current or its previous token. Keyed by the token alone: the
 * cookie is what tells the workspace, as an API key's prefix does.
 */
export async function findSessionByToken(
  q: Queryable,
  tokenHash: string,
  now: Date,
): Promise<AdminSessionRow | undefined> {
  const [row] = await query(q)<AdminSessionRow[]>`
    select s.id, s.workspace_id, s.user_id, s.expires_at, s.rotated_at, s.token_hash = ${tokenHash} as current,
      (s.expires_at > ${now} and u.password_version = s.password_version) as alive
    from admin_sessions s
    join memberships m on m.workspace_id = s.workspace_id and m.user_id = s.user_id
    join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} or s.previous_hash = ${tokenHash}`;
  return row;
}

/** Replaces the current token; false when another request rotated it first. */
export async function rotateSession(
  q: Queryable,
  workspaceId: string,
  fields: { id: string; fromHash: string; toHash: string; now: Date },
): Promise<boolean> {
  const rows = await query(q)`
    update admin_sessions
    set previous_hash = token_hash, token_hash = ${fields.toHash}, rotated_at = ${fields.now}, last_used_at = ${fields.now}
    where workspace_id = ${workspaceId} and id = ${fields.id} and token_hash = ${fields.fromHash}
    returning id`;
  return rows.length > 0;
}

export async function deleteSession(q: Queryable, workspaceId: string, sessionId: string): Promise<void> {
  await query(q)`delete from admin_sessions where workspace_id = ${workspaceId} and id = ${sessionId}`;
}
