import type { ListWebhookDeliveriesInput, ListWebhookDeliveriesOutput } from '../../generated/handlers.ts';
import { findEndpoint } from './webhook-endpoints-data.ts';
import { listDeliveries } from './webhook-deliveries-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { deliveryBody } from './wire.ts';

export type ListWebhookDeliveriesRequest = ListWebhookDeliveriesInput['query'];

/** Admin-only; one endpoint's deliveries, newest first. */
export function listWebhookDeliveries(
  deps: Deps,
  actor: Actor,
  endpointId: string,
  request: ListWebhookDeliveriesRequest,
) {
  requireAdmin(actor);
  return listPage(request, {
    scope: cursorScope(deps.auth, `list_webhook_deliveries:${endpointId}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      if (!(await findEndpoint(deps.db.sql, actor.workspaceId, endpointId))) {
        throw new ApiError('not_found', `No webhook endpoint ${endpointId} in this workspace.`);
      }
      return listDeliveries(deps.db.sql, actor.workspaceId, {
        endpointId,
        statuses: request.status ?? [],
        before: after,
        limit,
      });
    },
    toItem: deliveryBody,
    position: byCreation,
  });
}

export async function handle(
  input: ListWebhookDeliveriesInput,
  ctx: HandlerContext,
): Promise<ListWebhookDeliveriesOutput> {
  return {
    status: 200,
    body: await listWebhookDeliveries(ctx.deps, actorFrom(ctx), input.path.endpoint_id, input.query),
  };
}
