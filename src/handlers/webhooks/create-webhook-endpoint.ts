import type { CreateWebhookEndpointInput, CreateWebhookEndpointOutput } from '../../generated/handlers.ts';
import { createWebhookEndpoint as create } from './create-webhook-endpoint-logic.ts';
import { endpointBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function createWebhookEndpoint(input: CreateWebhookEndpointInput, ctx: HandlerContext): Promise<CreateWebhookEndpointOutput> {
  const { url, event_types: eventTypes, description } = input.body;
  const { row, secret } = await create(ctx.deps, actorFrom(ctx), { url, eventTypes, description });
  return { status: 201, body: { ...endpointBody(row), secret } };
}
