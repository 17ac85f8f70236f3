import { invalidateApiKey } from '../../auth/invalidation.ts';
import { revokeApiKeyRow, type ApiKeyRow } from './api-keys-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { RevokeApiKeyInput, RevokeApiKeyOutput } from '../../generated/handlers.ts';
// Events carry the resource as the API shows it, so the wire shape is shared with the handler.
import { apiKeyBody } from './wire.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';

/**
 * Revokes a key of the actor's workspace (again: idempotent) and returns only once every instance
 * sharing the database has dropped it, so the next request with it is refused everywhere.
 */
export async function revokeApiKey(deps: Deps, actor: Actor, keyId: string): Promise<ApiKeyRow> {
  requireAdmin(actor);
  const revoked = await deps.db.sql.begin(async (tx) => {
    const revoke = await revokeApiKeyRow(tx, actor.workspaceId, keyId, deps.clock.now());
    if (!revoke) return undefined;
    // A repeated revoke changes nothing, so it records nothing.
    if (revoke.changed)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'api_key.revoked', apiKeyBody(revoke.row));
    return { row: revoke.row, invalidation: await invalidateApiKey(tx, revoke.row.id) };
  });
  if (!revoked) throw new ApiError('not_found', 'No API key with this id in your workspace.');
  await deps.auth.authenticator.settle(revoked.invalidation);
  deps.log.info({ key_id: revoked.row.id, actor: actor.kind }, 'api key revoked');
  return revoked.row;
}

export async function handle(input: RevokeApiKeyInput, ctx: HandlerContext): Promise<RevokeApiKeyOutput> {
  const row = await revokeApiKey(ctx.deps, actorFrom(ctx), input.path.key_id);
  return { status: 200, body: apiKeyBody(row) };
}
