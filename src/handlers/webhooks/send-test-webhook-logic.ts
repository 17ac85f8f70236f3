// send_test_webhook: one signed `webhook.test` message to an endpoint, followed as an operation.
// It is a single attempt (no retry schedule) and does not count towards disabling the endpoint, so
// an admin can check a disabled endpoint before enabling it again. The operation succeeds when the
// endpoint answers 2xx and fails with a problem naming what it answered otherwise.
import { z } from 'zod';
import type { OperationRow } from '../operations/operations-data.ts';
import { findDelivery, findEndpoint, insertDelivery, recordAttempt } from './webhooks-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { defineOperationJob, startOperation, type OperationJobKind } from '../operations/operation-job.ts';
import { attemptDelivery } from './deliver.ts';

export const TEST_EVENT_TYPE = 'webhook.test';

/** Sends send_test_webhook's one message, followed by the operation it started. */
export const sendTestWebhookJob: OperationJobKind<{ delivery_id: string }> = defineOperationJob({
  name: 'webhooks.send-test',
  type: 'webhook_test',
  input: z.object({ delivery_id: z.string() }),
  retry: { limit: 2, delaySeconds: 5, backoff: false },
  expireInSeconds: 120,
  async run({ delivery_id: deliveryId }, work, deps) {
    const { sql } = deps.db;
    const delivery = await findDelivery(sql, work.workspaceId, deliveryId);
    if (!delivery) throw new ApiError('not_found', 'The test delivery is gone.');
    const endpoint = await findEndpoint(sql, work.workspaceId, delivery.endpoint_id);
    if (!endpoint) throw new ApiError('not_found', 'The webhook endpoint was deleted before the test was sent.');
    if (delivery.status === 'pending') {
      await work.throwIfCancelled();
      const outcome = await attemptDelivery(deps, endpoint, delivery, work.job.signal);
      await recordAttempt(sql, work.workspaceId, deliveryId, {
        attempt: delivery.attempts + 1,
        status: outcome.ok ? 'succeeded' : 'failed',
        statusCode: outcome.statusCode,
        error: outcome.error,
        nextAttemptAt: null,
        now: deps.clock.now(),
      });
    }
    const done = await findDelivery(sql, work.workspaceId, deliveryId);
    if (done?.status !== 'succeeded') {
      throw new ApiError('webhook_delivery_failed', `The test message was not accepted: ${done?.last_error ?? 'no answer'}.`);
    }
    return { resource: { type: 'webhook_delivery', id: deliveryId } };
  },
});

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
    const delivery = await insertDelivery(tx, actor.workspaceId, deps.ids, { endpointId, eventId: null, eventType: TEST_EVENT_TYPE, messageId, payload, now });
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
