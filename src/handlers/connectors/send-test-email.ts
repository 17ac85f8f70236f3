import type { SendTestEmailInput, SendTestEmailOutput } from '../../generated/handlers.ts';
import { sendTestEmail as send } from './send-test-email-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function sendTestEmail(input: SendTestEmailInput, ctx: HandlerContext): Promise<SendTestEmailOutput> {
  return { status: 200, body: await send(ctx.deps, actorFrom(ctx), { connectorId: input.path.connector_id, to: input.body.to }) };
}
