import type { ListWebhookEndpointsInput, ListWebhookEndpointsOutput } from '../../generated/handlers.ts';
import type { PageBound } from '../../db/paging.ts';
import { listEndpoints, type EndpointRow } from './webhooks-data.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { endpointBody } from './wire.ts';

export function listWebhookEndpoints(deps: Deps, actor: Actor, request: { limit: number; before?: PageBound }): Promise<EndpointRow[]> {
  requireAdmin(actor);
  return listEndpoints(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListWebhookEndpointsInput, ctx: HandlerContext): Promise<ListWebhookEndpointsOutput> {
  const actor = actorFrom(ctx);
  requireAdmin(actor);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_webhook_endpoints', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await listWebhookEndpoints(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, endpointBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
