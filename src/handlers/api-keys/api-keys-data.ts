// The api_keys table. Tenant rows: every function takes the workspace id right after the queryable,
// except the lookups made before any workspace is known: findApiKeyWorkspace (the operator, who works across
// tenants), findActiveKeyByPrefix (authentication: the key names its workspace) and recordKeysLastUsed (by key id).
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import type { Role } from '../members/memberships-data.ts';
import type { PageBound } from '../../db/paging.ts';

export type KeyRole = 'admin' | 'member';
export type RevokedReason = 'revoked' | 'creator_removed';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  role: KeyRole;
  created_by: string | null;
  /** The creator's current role in the key's workspace; null for CLI keys and for creators who left. */
  creator_role: Role | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: RevokedReason | null;
}

/** Every listed column of a key `k`, with its creator's current role from the membership `m`. */
const keyColumns = (q: Queryable) => query(q)`
  k.id, k.name, k.prefix, k.scopes, k.role, k.created_by, m.role as creator_role,
  k.created_at, k.last_used_at, k.revoked_at, k.revoked_reason`;
const creatorJoin = (q: Queryable) =>
  query(q)`left join memberships m on m.workspace_id = k.workspace_id and m.user_id = k.created_by`;

export interface NewApiKey {
  name: string;
  prefix: string;
  secretHash: string;
  role: KeyRole;
  createdBy: string | null;
  now: Date;
}

/** Stores a minted key; undefined when its prefix is already taken (the caller mints another). */
export async function insertApiKey(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: NewApiKey,
): Promise<ApiKeyRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ApiKeyRow[]>`
    with k as (
      insert into api_keys (id, workspace_id, name, prefix, secret_hash, scopes, role, created_by, created_at)
      values (${ids.make('key')}, ${workspaceId}, ${fields.name}, ${fields.prefix}, ${fields.secretHash},
              ${sql.array(['*'])}, ${fields.role}, ${fields.createdBy}, ${fields.now})
      on conflict (prefix) do nothing
      returning *)
    select ${keyColumns(q)} from k ${creatorJoin(q)}`;
  return row;
}

/** A page of the workspace's keys, newest first, strictly before `before` when given. */
export function findApiKeys(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound },
): Promise<ApiKeyRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<ApiKeyRow[]>`
    select ${keyColumns(q)} from api_keys k ${creatorJoin(q)}
    where k.workspace_id = ${workspaceId}
      ${before ? sql`and (k.created_at, k.id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by k.created_at desc, k.id desc
    limit ${page.limit}`;
}

/**
 * Marks the key revoked; a second revoke keeps the first time and says `changed: false`. Undefined when
 * the workspace has no such key. The update only matches an active key, so of two concurrent revokes
 * exactly one sees `changed` (the other waits for its row lock, then finds the key revoked).
 */
export async function revokeApiKeyRow(
  q: Queryable,
  workspaceId: string,
  keyId: string,
  now: Date,
): Promise<{ row: ApiKeyRow; changed: boolean } | undefined> {
  const [revoked] = await query(q)<ApiKeyRow[]>`
    with k as (
      update api_keys set revoked_at = ${now}, revoked_reason = 'revoked'
      where id = ${keyId} and workspace_id = ${workspaceId} and revoked_at is null
      returning *)
    select ${keyColumns(q)} from k ${creatorJoin(q)}`;
  if (revoked) return { row: revoked, changed: true };
  const [row] = await query(q)<ApiKeyRow[]>`
    select ${keyColumns(q)} from api_keys k ${creatorJoin(q)} where k.id = ${keyId} and k.workspace_id = ${workspaceId}`;
  return row && { row, changed: false };
}

/** Revokes the active keys a member created in the workspace; returns them as revoked. */
export function revokeKeysCreatedBy(
  q: Queryable,
  workspaceId: string,
  userId: string,
  now: Date,
): Promise<ApiKeyRow[]> {
  return query(q)<ApiKeyRow[]>`
    with k as (
      update api_keys set revoked_at = ${now}, revoked_reason = 'creator_removed'
      where workspace_id = ${workspaceId} and created_by = ${userId} and revoked_at is null
      returning *)
    select ${keyColumns(q)} from k ${creatorJoin(q)} order by k.created_at, k.id`;
}

/** The workspace a key belongs to, for the operator who names a key without its workspace. */
export async function findApiKeyWorkspace(q: Queryable, keyId: string): Promise<string | undefined> {
  const [row] = await query(q)<{ workspace_id: string }[]>`select workspace_id from api_keys where id = ${keyId}`;
  return row?.workspace_id;
}
