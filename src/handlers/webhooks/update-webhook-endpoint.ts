import type { UpdateWebhookEndpointInput, UpdateWebhookEndpointOutput } from '../../generated/handlers.ts';
import { updateWebhookEndpoint as update } from './update-webhook-endpoint-logic.ts';
import { endpointBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function updateWebhookEndpoint(input: UpdateWebhookEndpointInput, ctx: HandlerContext): Promise<UpdateWebhookEndpointOutput> {
  const { url, description, event_types: eventTypes, enabled } = input.body;
  const row = await update(ctx.deps, actorFrom(ctx), { endpointId: input.path.endpoint_id, url, description, eventTypes, enabled });
  return { status: 200, body: endpointBody(row) };
}
