import type { RevokeApiKeyInput, RevokeApiKeyOutput } from '../../generated/handlers.ts';
import { revokeApiKey as revoke } from '../../operations/api-keys/revoke-api-key.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { apiKeyBody } from '../../operations/api-keys/wire.ts';

export async function revokeApiKey(input: RevokeApiKeyInput, ctx: HandlerContext): Promise<RevokeApiKeyOutput> {
  const row = await revoke(ctx.deps, actorFrom(ctx), input.path.key_id);
  return { status: 200, body: apiKeyBody(row) };
}
