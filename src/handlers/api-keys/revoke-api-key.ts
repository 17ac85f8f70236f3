import { ApiError } from '../../errors.ts';
import type { RevokeApiKeyInput, RevokeApiKeyOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { apiKeyBody } from './shape.ts';
import { revokeApiKeyRow } from './store.ts';

export async function revokeApiKey(input: RevokeApiKeyInput, ctx: HandlerContext): Promise<RevokeApiKeyOutput> {
  const principal = requireAdmin(ctx);
  const revoked = await revokeApiKeyRow(ctx.deps.sql, ctx.deps.clock, principal.workspaceId, input.path.key_id);
  if (!revoked) throw new ApiError('not_found', 'No API key with this id in your workspace.');
  // Answer only once every instance has dropped the key, so the next request with it is refused.
  await ctx.deps.authenticator.settle(revoked.invalidation);
  ctx.deps.log.info({ key_id: revoked.row.id }, 'api key revoked');
  return { status: 200, body: apiKeyBody(revoked.row) };
}
