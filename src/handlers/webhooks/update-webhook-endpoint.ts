import type { UpdateWebhookEndpointInput, UpdateWebhookEndpointOutput } from '../../generated/handlers.ts';
import { updateEndpoint, type EndpointRow } from './webhook-endpoints-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { checkEndpointUrl, checkEventTypes } from './endpoint-input.ts';
import { endpointBody } from './wire.ts';

export interface UpdateWebhookEndpointRequest {
  endpointId: string;
  url?: string;
  description?: string;
  eventTypes?: string[];
  /** true re-enables a disabled endpoint (its failure count starts again from zero); false pauses it. */
  enabled?: boolean;
}

export async function updateWebhookEndpoint(
  deps: Deps,
  actor: Actor,
  request: UpdateWebhookEndpointRequest,
): Promise<EndpointRow> {
  requireAdmin(actor);
  const url = request.url === undefined ? undefined : checkEndpointUrl(deps, request.url);
  const eventTypes = request.eventTypes === undefined ? undefined : checkEventTypes(request.eventTypes);
  return deps.db.sql.begin(async (tx) => {
    const row = await updateEndpoint(tx, actor.workspaceId, request.endpointId, {
      url,
      description: request.description,
      eventTypes,
      enable: request.enabled,
      now: deps.clock.now(),
    });
    if (!row) throw new ApiError('not_found', `No webhook endpoint ${request.endpointId} in this workspace.`);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webhook_endpoint.updated', endpointBody(row));
    return row;
  });
}

export async function handle(
  input: UpdateWebhookEndpointInput,
  ctx: HandlerContext,
): Promise<UpdateWebhookEndpointOutput> {
  const { url, description, event_types: eventTypes, enabled } = input.body;
  const row = await updateWebhookEndpoint(ctx.deps, actorFrom(ctx), {
    endpointId: input.path.endpoint_id,
    url,
    description,
    eventTypes,
    enabled,
  });
  return { status: 200, body: endpointBody(row) };
}
