// Minting, listing and revoking keys: shared by the API operations and the operator CLI.
import type { Sql, TransactionSql } from 'postgres';
import { mintApiKey } from '../../auth/api-keys.ts';
import { invalidateApiKey, type Invalidation } from '../../auth/invalidation.ts';
import type { Clock, Ids } from '../../deps.ts';
import type { ApiKeyRow, KeyRole } from './shape.ts';

const UNIQUE_VIOLATION = '23505';

type Queryable = Sql | TransactionSql;

export interface MintRequest {
  workspaceId: string;
  name: string;
  createdBy: string | null;
  /** The most the key may do; for a key minted by a user, never above that user's role. */
  role: KeyRole;
}

/** Every listed column of a key `k`, with its creator's current role from the membership `m`. */
const keyColumns = (sql: Queryable) => (sql as Sql)`
  k.id, k.name, k.prefix, k.scopes, k.role, k.created_by, m.role as creator_role,
  k.created_at, k.last_used_at, k.revoked_at, k.revoked_reason`;
const creatorJoin = (sql: Queryable) => (sql as Sql)`left join memberships m on m.workspace_id = k.workspace_id and m.user_id = k.created_by`;

export async function insertApiKey(sql: Sql, ids: Ids, clock: Clock, pepper: Uint8Array, request: MintRequest): Promise<{ row: ApiKeyRow; key: string }> {
  // A prefix collision (1 in 36^8 per pair) is retried with a fresh key rather than surfaced.
  for (let attempt = 0; ; attempt++) {
    const minted = mintApiKey(pepper);
    try {
      const [row] = await sql<ApiKeyRow[]>`
        with k as (
          insert into api_keys (id, workspace_id, name, prefix, secret_hash, scopes, role, created_by, created_at)
          values (${ids.make('key')}, ${request.workspaceId}, ${request.name}, ${minted.prefix}, ${minted.secretHash},
                  ${sql.array(['*'])}, ${request.role}, ${request.createdBy}, ${clock.now()})
          returning *)
        select ${keyColumns(sql)} from k ${creatorJoin(sql)}`;
      return { row, key: minted.key };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 3) throw error;
    }
  }
}

/** A page of the workspace's keys, newest first, strictly before `before` when given. */
export function listKeys(sql: Sql, workspaceId: string, page: { limit: number; before?: { at: string; id: string } }): Promise<ApiKeyRow[]> {
  const { before } = page;
  return sql<ApiKeyRow[]>`
    select ${keyColumns(sql)} from api_keys k ${creatorJoin(sql)}
    where k.workspace_id = ${workspaceId}
      ${before ? sql`and (k.created_at, k.id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by k.created_at desc, k.id desc
    limit ${page.limit}`;
}

/**
 * Marks the key revoked (idempotent: a second revoke keeps the first time) and announces it in the
 * same transaction; undefined when no such key exists in the workspace.
 */
export async function revokeApiKeyRow(sql: Sql, clock: Clock, workspaceId: string, keyId: string): Promise<{ row: ApiKeyRow; invalidation: Invalidation } | undefined> {
  return sql.begin(async (tx) => {
    const [row] = await tx<ApiKeyRow[]>`
      with k as (
        update api_keys set revoked_at = coalesce(revoked_at, ${clock.now()}), revoked_reason = coalesce(revoked_reason, 'revoked')
        where id = ${keyId} and workspace_id = ${workspaceId}
        returning *)
      select ${keyColumns(tx)} from k ${creatorJoin(tx)}`;
    if (!row) return undefined;
    return { row, invalidation: await invalidateApiKey(tx, row.id) };
  });
}

/**
 * Revokes the active keys a member created in a workspace; call in the transaction that removes the
 * membership. The membership invalidation sent with it also evicts these keys (principal-cache.ts).
 */
export async function revokeKeysCreatedBy(tx: Queryable, clock: Clock, workspaceId: string, userId: string): Promise<string[]> {
  const rows = await (tx as Sql)<{ id: string }[]>`
    update api_keys set revoked_at = ${clock.now()}, revoked_reason = 'creator_removed'
    where workspace_id = ${workspaceId} and created_by = ${userId} and revoked_at is null
    returning id`;
  return rows.map((r) => r.id);
}
