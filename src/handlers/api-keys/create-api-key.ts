import { mintApiKey } from '../../auth/api-keys.ts';
import { insertApiKey, type ApiKeyRow, type KeyRole } from './api-keys-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { CreateApiKeyInput, CreateApiKeyOutput } from '../../generated/handlers.ts';
// Events carry the resource as the API shows it, so the wire shape is shared with the handler.
import { apiKeyBody } from './wire.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { keyRoleFor } from './key-roles.ts';

export interface CreateApiKeyRequest {
  name: string;
  /** Defaults to the most the actor may give: its own role as a key role. */
  role?: KeyRole;
}

/** Mints a key for the actor's workspace; the full key is in the result and nowhere else. */
export async function createApiKey(
  deps: Deps,
  actor: Actor,
  request: CreateApiKeyRequest,
): Promise<{ row: ApiKeyRow; key: string }> {
  requireAdmin(actor);
  const ceiling = keyRoleFor(actor.role);
  const role = request.role ?? ceiling;
  if (role === 'admin' && ceiling !== 'admin')
    throw new ApiError('forbidden', 'A key cannot act with more than its minter.');
  // A prefix collision (1 in 36^8 per pair) is retried with a fresh key rather than surfaced.
  for (let attempt = 0; attempt < 4; attempt++) {
    const minted = mintApiKey(deps.auth.apiKeyPepper);
    const row = await deps.db.sql.begin(async (tx) => {
      const inserted = await insertApiKey(tx, actor.workspaceId, deps.ids, {
        name: request.name,
        prefix: minted.prefix,
        secretHash: minted.secretHash,
        role,
        createdBy: actor.userId,
        now: deps.clock.now(),
      });
      if (inserted)
        await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'api_key.created', apiKeyBody(inserted));
      return inserted;
    });
    if (row) {
      deps.log.info({ key_id: row.id, prefix: row.prefix, actor: actor.kind }, 'api key minted');
      return { row, key: minted.key };
    }
  }
  throw new Error('four API key prefixes in a row were taken');
}

export async function handle(input: CreateApiKeyInput, ctx: HandlerContext): Promise<CreateApiKeyOutput> {
  const { row, key } = await createApiKey(ctx.deps, actorFrom(ctx), { name: input.body.name });
  return { status: 201, body: { ...apiKeyBody(row), key } };
}
