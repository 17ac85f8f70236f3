import type { CreateApiKeyInput, CreateApiKeyOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { apiKeyBody, keyRoleFor } from './shape.ts';
import { insertApiKey } from './store.ts';

export async function createApiKey(input: CreateApiKeyInput, ctx: HandlerContext): Promise<CreateApiKeyOutput> {
  const principal = requireAdmin(ctx);
  const { sql, ids, clock, apiKeyPepper } = ctx.deps;
  const { row, key } = await insertApiKey(sql, ids, clock, apiKeyPepper, {
    workspaceId: principal.workspaceId,
    name: input.body.name,
    createdBy: principal.userId || null,
    // The minter's role now (already lowered for a key minting a key), never above it.
    role: keyRoleFor(principal.role),
  });
  ctx.deps.log.info({ key_id: row.id, prefix: row.prefix }, 'api key minted');
  return { status: 201, body: { ...apiKeyBody(row), key } };
}
