import type { DeleteWebhookEndpointInput, DeleteWebhookEndpointOutput } from '../../generated/handlers.ts';
import { deleteWebhookEndpoint as remove } from './delete-webhook-endpoint-logic.ts';
import { endpointBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function deleteWebhookEndpoint(input: DeleteWebhookEndpointInput, ctx: HandlerContext): Promise<DeleteWebhookEndpointOutput> {
  return { status: 200, body: endpointBody(await remove(ctx.deps, actorFrom(ctx), input.path.endpoint_id)) };
}
