import { findApiKeys, type ApiKeyRow } from './api-keys-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { ListApiKeysInput, ListApiKeysOutput } from '../../generated/handlers.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { apiKeyBody } from './wire.ts';

/**
 * The workspace's keys as rows, newest first; `limit` rows at most, strictly before `before`. The operator
 * CLI lists every key of a workspace through this; the API pages it.
 */
export async function listApiKeys(
  deps: Deps,
  actor: Actor,
  request: { limit: number; before?: PageBound },
): Promise<ApiKeyRow[]> {
  requireAdmin(actor);
  return findApiKeys(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListApiKeysInput, ctx: HandlerContext): Promise<ListApiKeysOutput> {
  const actor = actorFrom(ctx);
  // Checked before the cursor too, so a member learns nothing from how their cursor is judged.
  requireAdmin(actor);
  const body = await listPage(input.query, {
    scope: cursorScope(ctx.deps.auth, 'list_api_keys', actor.workspaceId),
    fetch: ({ limit, after }) => listApiKeys(ctx.deps, actor, { limit, before: after }),
    toItem: apiKeyBody,
    position: byCreation,
  });
  return { status: 200, body };
}
