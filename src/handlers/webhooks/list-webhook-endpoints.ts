import type { ListWebhookEndpointsInput, ListWebhookEndpointsOutput } from '../../generated/handlers.ts';
import { requireAdmin } from '../actor.ts';
import { listWebhookEndpoints as list } from './list-webhook-endpoints-logic.ts';
import { endpointBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';

export async function listWebhookEndpoints(input: ListWebhookEndpointsInput, ctx: HandlerContext): Promise<ListWebhookEndpointsOutput> {
  const actor = actorFrom(ctx);
  requireAdmin(actor);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_webhook_endpoints', actor.workspaceId);
  const before = decodeCursor(input.query.cursor, scope);
  const rows = await list(ctx.deps, actor, { limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, endpointBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
