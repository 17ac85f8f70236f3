import type { SendTestWebhookInput, SendTestWebhookOutput } from '../../generated/handlers.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { sendTestWebhook as send } from './send-test-webhook-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function sendTestWebhook(input: SendTestWebhookInput, ctx: HandlerContext): Promise<SendTestWebhookOutput> {
  const row = await send(ctx.deps, actorFrom(ctx), input.path.endpoint_id);
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
