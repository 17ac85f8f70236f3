// Minting and revoking keys: shared by the API operations and the operator CLI.
import type { Sql } from 'postgres';
import { mintApiKey } from '../../auth/api-keys.ts';
import { invalidateApiKey, type Invalidation } from '../../auth/invalidation.ts';
import type { Clock, Ids } from '../../deps.ts';
import type { ApiKeyRow } from './shape.ts';

const UNIQUE_VIOLATION = '23505';

export interface MintRequest {
  workspaceId: string;
  name: string;
  createdBy: string | null;
}

export async function insertApiKey(sql: Sql, ids: Ids, clock: Clock, pepper: Uint8Array, request: MintRequest): Promise<{ row: ApiKeyRow; key: string }> {
  // A prefix collision (1 in 36^8 per pair) is retried with a fresh key rather than surfaced.
  for (let attempt = 0; ; attempt++) {
    const minted = mintApiKey(pepper);
    try {
      const [row] = await sql<ApiKeyRow[]>`
        insert into api_keys (id, workspace_id, name, prefix, secret_hash, scopes, created_by, created_at)
        values (${ids.make('key')}, ${request.workspaceId}, ${request.name}, ${minted.prefix}, ${minted.secretHash},
                ${sql.array(['*'])}, ${request.createdBy}, ${clock.now()})
        returning id, name, prefix, scopes, created_by, created_at, last_used_at, revoked_at`;
      return { row, key: minted.key };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 3) throw error;
    }
  }
}

/**
 * Marks the key revoked (idempotent: a second revoke keeps the first time) and announces it in the
 * same transaction; undefined when no such key exists in the workspace.
 */
export async function revokeApiKeyRow(sql: Sql, clock: Clock, workspaceId: string, keyId: string): Promise<{ row: ApiKeyRow; invalidation: Invalidation } | undefined> {
  return sql.begin(async (tx) => {
    const [row] = await tx<ApiKeyRow[]>`
      update api_keys set revoked_at = coalesce(revoked_at, ${clock.now()})
      where id = ${keyId} and workspace_id = ${workspaceId}
      returning id, name, prefix, scopes, created_by, created_at, last_used_at, revoked_at`;
    if (!row) return undefined;
    return { row, invalidation: await invalidateApiKey(tx, row.id) };
  });
}
