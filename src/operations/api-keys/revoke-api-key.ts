import { invalidateApiKey } from '../../auth/invalidation.ts';
import { revokeApiKey as revokeKeyRow, type ApiKeyRow } from '../../data/api-keys.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';

/**
 * Revokes a key of the actor's workspace (again: idempotent) and returns only once every instance
 * sharing the database has dropped it, so the next request with it is refused everywhere.
 */
export async function revokeApiKey(deps: Deps, actor: Actor, keyId: string): Promise<ApiKeyRow> {
  requireAdmin(actor);
  const revoked = await deps.db.sql.begin(async (tx) => {
    const row = await revokeKeyRow(tx, actor.workspaceId, keyId, deps.clock.now());
    return row && { row, invalidation: await invalidateApiKey(tx, row.id) };
  });
  if (!revoked) throw new ApiError('not_found', 'No API key with this id in your workspace.');
  await deps.auth.authenticator.settle(revoked.invalidation);
  deps.log.info({ key_id: revoked.row.id, actor: actor.kind }, 'api key revoked');
  return revoked.row;
}
