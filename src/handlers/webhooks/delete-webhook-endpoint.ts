import type { DeleteWebhookEndpointInput, DeleteWebhookEndpointOutput } from '../../generated/handlers.ts';
import { deleteEndpoint, type EndpointRow } from './webhook-endpoints-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { endpointBody } from './wire.ts';

/** Stops every delivery to the endpoint, pending retries included; its delivery history stays. */
export async function deleteWebhookEndpoint(deps: Deps, actor: Actor, endpointId: string): Promise<EndpointRow> {
  requireAdmin(actor);
  return deps.db.sql.begin(async (tx) => {
    const row = await deleteEndpoint(tx, actor.workspaceId, endpointId, deps.clock.now());
    if (!row) throw new ApiError('not_found', `No webhook endpoint ${endpointId} in this workspace.`);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webhook_endpoint.deleted', endpointBody(row));
    return row;
  });
}

export async function handle(
  input: DeleteWebhookEndpointInput,
  ctx: HandlerContext,
): Promise<DeleteWebhookEndpointOutput> {
  return {
    status: 200,
    body: endpointBody(await deleteWebhookEndpoint(ctx.deps, actorFrom(ctx), input.path.endpoint_id)),
  };
}
