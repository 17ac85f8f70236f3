import type { PageBound } from '../../db/paging.ts';
import { findEndpoint, listDeliveries, type DeliveryRow, type DeliveryStatus } from './webhooks-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';

export interface ListWebhookDeliveriesRequest {
  endpointId: string;
  statuses: DeliveryStatus[];
  before?: PageBound;
  limit: number;
}

export async function listWebhookDeliveries(deps: Deps, actor: Actor, request: ListWebhookDeliveriesRequest): Promise<DeliveryRow[]> {
  requireAdmin(actor);
  if (!(await findEndpoint(deps.db.sql, actor.workspaceId, request.endpointId))) {
    throw new ApiError('not_found', `No webhook endpoint ${request.endpointId} in this workspace.`);
  }
  return listDeliveries(deps.db.sql, actor.workspaceId, request);
}
