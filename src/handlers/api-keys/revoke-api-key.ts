import type { RevokeApiKeyInput, RevokeApiKeyOutput } from '../../generated/handlers.ts';
import { revokeApiKey as revoke } from './revoke-api-key-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { apiKeyBody } from './wire.ts';

export async function revokeApiKey(input: RevokeApiKeyInput, ctx: HandlerContext): Promise<RevokeApiKeyOutput> {
  const row = await revoke(ctx.deps, actorFrom(ctx), input.path.key_id);
  return { status: 200, body: apiKeyBody(row) };
}
