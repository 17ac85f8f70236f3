// The reads and writes the authenticator makes on every credential it checks: an API key by its prefix,
// a member's role, whether a user still exists, and the keys' batched last-used times. They belong to
// authentication, not to an area, so they live here beside it (the areas' data modules keep the rest
// of these tables).
import { query, type Queryable } from '../db/queryable.ts';
import type { Principal } from './principal.ts';

/** What authentication needs of an active key, found by its public prefix before its workspace is known. */
export interface ActiveKeyRow {
  id: string;
  workspace_id: string;
  secret_hash: string;
  scopes: string[];
  role: 'admin' | 'member';
  created_by: string | null;
}

export async function findActiveKeyByPrefix(q: Queryable, prefix: string): Promise<ActiveKeyRow | undefined> {
  const [row] = await query(q)<ActiveKeyRow[]>`
    select k.id, k.workspace_id, k.secret_hash, k.scopes, k.role, k.created_by
    from api_keys k join workspaces w on w.id = k.workspace_id
    where k.prefix = ${prefix} and k.revoked_at is null`;
  return row;
}

/** Batched last-used times by key id; greatest() keeps the newest when instances flush out of order. */
export async function recordKeysLastUsed(q: Queryable, usedAt: Map<string, Date>): Promise<void> {
  const sql = query(q);
  const ids = [...usedAt.keys()];
  const times = ids.map((id) => usedAt.get(id)!.toISOString());
  await sql`
    update api_keys as k
    set last_used_at = greatest(k.last_used_at, v.used_at)
    from (select unnest(${sql.array(ids)}::text[]) as id,
                 unnest(${sql.array(times)}::text[])::timestamptz as used_at) as v
    where k.id = v.id`;
}

/** The member's role alone: the authenticator's per-credential lookup, kept to one indexed row. */
export async function findMemberRole(
  q: Queryable,
  workspaceId: string,
  userId: string,
): Promise<Principal['role'] | undefined> {
  const [row] = await query(q)<{ role: Principal['role'] }[]>`
    select role from memberships where workspace_id = ${workspaceId} and user_id = ${userId}`;
  return row?.role;
}

/** Whether the account still exists (a login that names no workspace is valid only while it does). */
export async function userExists(q: Queryable, userId: string): Promise<boolean> {
  const rows = await query(q)`select 1 from users where id = ${userId}`;
  return rows.length > 0;
}
