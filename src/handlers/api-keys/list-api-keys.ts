import type { ListApiKeysInput, ListApiKeysOutput } from '../../generated/handlers.ts';
import { requireAdmin } from '../actor.ts';
import { listApiKeys as list } from './list-api-keys-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { apiKeyBody } from './wire.ts';

export async function listApiKeys(input: ListApiKeysInput, ctx: HandlerContext): Promise<ListApiKeysOutput> {
  const actor = actorFrom(ctx);
  // Checked before the cursor too, so a member learns nothing from how their cursor is judged.
  requireAdmin(actor);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_api_keys', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await list(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, apiKeyBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
