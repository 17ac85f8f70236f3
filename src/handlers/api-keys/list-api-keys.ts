import type { ListApiKeysInput, ListApiKeysOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { apiKeyBody } from './shape.ts';
import { listKeys } from './store.ts';

export async function listApiKeys(input: ListApiKeysInput, ctx: HandlerContext): Promise<ListApiKeysOutput> {
  const principal = requireAdmin(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps, 'list_api_keys', principal.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await listKeys(ctx.deps.sql, principal.workspaceId, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, apiKeyBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
