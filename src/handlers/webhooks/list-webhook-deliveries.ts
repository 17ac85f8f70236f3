import type { DeliveryStatus } from './webhooks-data.ts';
import type { ListWebhookDeliveriesInput, ListWebhookDeliveriesOutput } from '../../generated/handlers.ts';
import { requireAdmin } from '../actor.ts';
import { listWebhookDeliveries as list } from './list-webhook-deliveries-logic.ts';
import { deliveryBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled'];

export async function listWebhookDeliveries(input: ListWebhookDeliveriesInput, ctx: HandlerContext): Promise<ListWebhookDeliveriesOutput> {
  const actor = actorFrom(ctx);
  requireAdmin(actor);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_webhook_deliveries:${input.path.endpoint_id}`, actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await list(ctx.deps, actor, { endpointId: input.path.endpoint_id, statuses: commaList(query.status, 'status', statuses), before, limit: limit + 1 });
  return { status: 200, body: page(rows, limit, deliveryBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
