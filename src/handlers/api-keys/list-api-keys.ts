import { listApiKeyRows, type ApiKeyRow } from './api-keys-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { ListApiKeysInput, ListApiKeysOutput } from '../../generated/handlers.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { apiKeyBody } from './wire.ts';

/** The workspace's keys, newest first; `limit` rows at most, strictly before `before`. */
export async function listApiKeys(deps: Deps, actor: Actor, request: { limit: number; before?: PageBound }): Promise<ApiKeyRow[]> {
  requireAdmin(actor);
  return listApiKeyRows(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListApiKeysInput, ctx: HandlerContext): Promise<ListApiKeysOutput> {
  const actor = actorFrom(ctx);
  // Checked before the cursor too, so a member learns nothing from how their cursor is judged.
  requireAdmin(actor);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_api_keys', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await listApiKeys(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, apiKeyBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
