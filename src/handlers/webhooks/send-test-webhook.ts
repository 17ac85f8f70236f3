// send_test_webhook: one signed `webhook.test` message to an endpoint, followed as an operation whose
// job (send-test-webhook-logic.ts) makes the single attempt.
import type { SendTestWebhookInput, SendTestWebhookOutput } from '../../generated/handlers.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import { findEndpoint } from './webhook-endpoints-data.ts';
import { insertDelivery } from './webhook-deliveries-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { startOperation } from '../operations/operation-job.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { sendTestWebhookJob } from './send-test-webhook-job.ts';

export const TEST_EVENT_TYPE = 'webhook.test';

export async function sendTestWebhook(deps: Deps, actor: Actor, endpointId: string): Promise<OperationRow> {
  requireAdmin(actor);
  const now = deps.clock.now();
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const endpoint = await findEndpoint(tx, actor.workspaceId, endpointId);
    if (!endpoint) throw new ApiError('not_found', `No webhook endpoint ${endpointId} in this workspace.`);
    const messageId = deps.ids.make('msg');
    const payload = JSON.stringify({
      id: messageId,
      type: TEST_EVENT_TYPE,
      created_at: now.toISOString(),
      workspace_id: actor.workspaceId,
      data: { endpoint_id: endpoint.id, message: 'A test message from send_test_webhook.' },
    });
    const delivery = await insertDelivery(tx, actor.workspaceId, deps.ids, {
      endpointId,
      eventId: null,
      eventType: TEST_EVENT_TYPE,
      messageId,
      payload,
      now,
    });
    if (!delivery) throw new Error('a fresh message id collided');
    return startOperation(deps, tx, actor, {
      kind: sendTestWebhookJob,
      input: { delivery_id: delivery.id },
      resource: { type: 'webhook_delivery', id: delivery.id },
    });
  });
  afterCommit();
  return row;
}

export async function handle(input: SendTestWebhookInput, ctx: HandlerContext): Promise<SendTestWebhookOutput> {
  const row = await sendTestWebhook(ctx.deps, actorFrom(ctx), input.path.endpoint_id);
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
