// The job of send_test_webhook (send-test-webhook.ts): one signed `webhook.test` message to an
// endpoint, followed as an operation. It is a single attempt (no retry schedule) and does not count
// towards disabling the endpoint, so an admin can check a disabled endpoint before enabling it again.
// The operation succeeds when the endpoint answers 2xx and fails with a problem naming what it
// answered otherwise.
import { z } from 'zod';
import { findDelivery, recordAttempt } from './webhook-deliveries-data.ts';
import { findEndpoint } from './webhook-endpoints-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { defineOperationJob, type OperationJobKind } from '../operations/operation-job.ts';
import { attemptDelivery } from './deliver.ts';

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
      throw new ApiError(
        'webhook_delivery_failed',
        `The test message was not accepted: ${done?.last_error ?? 'no answer'}.`,
      );
    }
    return { resource: { type: 'webhook_delivery', id: deliveryId } };
  },
});
