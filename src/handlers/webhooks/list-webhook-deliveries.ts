import type { ListWebhookDeliveriesInput, ListWebhookDeliveriesOutput } from '../../generated/handlers.ts';
import type { PageBound } from '../../db/paging.ts';
import { findEndpoint, listDeliveries, type DeliveryRow, type DeliveryStatus } from './webhooks-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { deliveryBody } from './wire.ts';

export interface ListWebhookDeliveriesRequest {
  endpointId: string;
  statuses: DeliveryStatus[];
  before?: PageBound;
  limit: number;
}

const statuses: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled'];

export async function listWebhookDeliveries(deps: Deps, actor: Actor, request: ListWebhookDeliveriesRequest): Promise<DeliveryRow[]> {
  requireAdmin(actor);
  if (!(await findEndpoint(deps.db.sql, actor.workspaceId, request.endpointId))) {
    throw new ApiError('not_found', `No webhook endpoint ${request.endpointId} in this workspace.`);
  }
  return listDeliveries(deps.db.sql, actor.workspaceId, request);
}

export async function handle(input: ListWebhookDeliveriesInput, ctx: HandlerContext): Promise<ListWebhookDeliveriesOutput> {
  const actor = actorFrom(ctx);
  requireAdmin(actor);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_webhook_deliveries:${input.path.endpoint_id}`, actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await listWebhookDeliveries(ctx.deps, actor, {
    endpointId: input.path.endpoint_id,
    statuses: commaList(query.status, 'status', statuses),
    before,
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, deliveryBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
