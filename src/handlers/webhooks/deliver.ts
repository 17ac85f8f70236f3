// Delivering webhooks. An event's fan-out inserts one delivery per subscribed endpoint and enqueues
// its first attempt in the event's own transaction. Each attempt is one job: it POSTs the stored
// payload, signed afresh, through the SSRF-safe outbound client (no redirects followed), and records
// the outcome; a failure schedules the next attempt as a new job at the next step of the retry
// schedule (about a day in all). When a delivery's last attempt fails and the endpoint has not
// succeeded since that delivery began, the endpoint is disabled with a `webhook_endpoint.disabled`
// event. Deliveries are at least once: a crash between the POST and its record sends it again with
// the same `webhook-id`, which receivers deduplicate on.
import { createHash } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { z } from 'zod';
import type { EventRow } from '../events/events-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import {
  cancelDelivery,
  findDelivery,
  insertDelivery,
  recordAttempt,
  type DeliveryRow,
} from './webhook-deliveries-data.ts';
import {
  disableEndpoint,
  endpointsForEvent,
  findEndpoint,
  recordEndpointFailure,
  recordEndpointSuccess,
  type EndpointRow,
} from './webhook-endpoints-data.ts';
import type { Deps } from '../../deps.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { OutboundError } from '../../outbound/outbound-error.ts';
import { webhookHeaders } from './signature.ts';
import { recordEvent } from '../events/record-event.ts';
import { eventBody } from '../events/wire.ts';
import { endpointBody } from './wire.ts';

export interface DeliverPayload {
  workspace_id: string;
  delivery_id: string;
}

/** Response bodies are read only to free the connection; receivers owe us a status, not content. */
const RESPONSE_CAP_BYTES = 64 * 1024;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed, in a line a person can act on (never a secret). */
  error: string | null;
}

/** One signed POST of the delivery's payload. Never throws for a failure of the receiver. */
export async function attemptDelivery(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  const secret = Buffer.from(deps.sealing.webhookSecrets.open(endpoint.id, endpoint.secret_sealed)).toString('utf8');
  const headers = webhookHeaders(secret, delivery.message_id, deps.clock.now(), delivery.payload);
  try {
    const response = await deps.outbound.fetch(endpoint.url, {
      method: 'POST',
      headers,
      body: delivery.payload,
      maxRedirects: 0,
      timeoutMs: deps.config.webhooks.timeoutMs,
      maxBytes: RESPONSE_CAP_BYTES,
      signal,
    });
    await response.cancel();
    if (response.ok) return { ok: true, statusCode: response.status, error: null };
    return { ok: false, statusCode: response.status, error: `the endpoint answered ${response.status}` };
  } catch (error) {
    if (error instanceof OutboundError)
      return { ok: false, statusCode: null, error: `${error.reason}: ${error.message}` };
    throw error;
  }
}

/** A UUID that is the same for the same delivery and attempt, so a repeated enqueue is ignored. */
export function attemptJobId(deliveryId: string, attempt: number): string {
  const h = createHash('sha256').update(`${deliveryId}#${attempt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One attempt at a webhook delivery; a failed attempt queues the next one on the delivery schedule. */
export const deliverWebhookJob: JobKind<DeliverPayload, Deps> = defineJob({
  name: 'webhooks.deliver',
  payload: z.object({ workspace_id: z.string(), delivery_id: z.string() }),
  // Retries here are for crashes only: the receiver's failures follow the delivery schedule.
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  handler: async ({ workspace_id: workspaceId, delivery_id: deliveryId }, job, deps) => {
    const { sql } = deps.db;
    const delivery = await findDelivery(sql, workspaceId, deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const endpoint = await findEndpoint(sql, workspaceId, delivery.endpoint_id);
    if (!endpoint || endpoint.status !== 'enabled') {
      await cancelDelivery(sql, workspaceId, deliveryId, 'the endpoint was disabled or deleted', deps.clock.now());
      return;
    }
    const attempt = delivery.attempts + 1;
    const outcome = await attemptDelivery(deps, endpoint, delivery, job.signal);
    await job.once(`attempt-${attempt}`, (tx) => recordOutcome(deps, tx, workspaceId, delivery, attempt, outcome));
  },
});

async function recordOutcome(
  deps: Deps,
  tx: TransactionSql,
  workspaceId: string,
  delivery: DeliveryRow,
  attempt: number,
  outcome: AttemptOutcome,
): Promise<void> {
  const now = deps.clock.now();
  const common = { attempt, statusCode: outcome.statusCode, error: outcome.error, now };
  if (outcome.ok) {
    if (await recordAttempt(tx, workspaceId, delivery.id, { ...common, status: 'succeeded', nextAttemptAt: null })) {
      await recordEndpointSuccess(tx, workspaceId, delivery.endpoint_id, now);
    }
    return;
  }
  const schedule = deps.config.webhooks.retryScheduleSeconds;
  const waitSeconds = schedule[attempt - 1];
  if (waitSeconds !== undefined) {
    const next = new Date(now.getTime() + waitSeconds * 1000);
    if (!(await recordAttempt(tx, workspaceId, delivery.id, { ...common, status: 'pending', nextAttemptAt: next })))
      return;
    await recordEndpointFailure(tx, workspaceId, delivery.endpoint_id, now);
    await deps.jobs.enqueue(
      deliverWebhookJob,
      { workspace_id: workspaceId, delivery_id: delivery.id },
      { tx, startAfter: next, id: attemptJobId(delivery.id, attempt + 1) },
    );
    return;
  }
  if (!(await recordAttempt(tx, workspaceId, delivery.id, { ...common, status: 'failed', nextAttemptAt: null })))
    return;
  const endpoint = await recordEndpointFailure(tx, workspaceId, delivery.endpoint_id, now);
  // No success since this delivery began: nothing got through for the whole retry schedule.
  if (endpoint && (!endpoint.last_success_at || endpoint.last_success_at.getTime() < delivery.created_at.getTime())) {
    const disabled = await disableEndpoint(tx, workspaceId, endpoint.id, 'failing', now);
    if (disabled) {
      deps.log.warn(
        { endpoint_id: endpoint.id, failure_count: disabled.failure_count },
        'webhook endpoint disabled after repeated failure',
      );
      await recordEvent(
        deps,
        tx,
        workspaceId,
        { type: 'system', id: null },
        'webhook_endpoint.disabled',
        endpointBody(disabled),
      );
    }
  }
}

/**
 * An event subscriber (deps.eventSubscribers, registered in src/services.ts), run by recordEvent in the
 * events' transaction: a delivery per enabled endpoint subscribed to each event's type, and its first
 * attempt's job. No endpoint, no cost beyond one indexed query per event type.
 */
export async function fanOutEvent(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  events: readonly EventRow[],
): Promise<void> {
  const endpointsOf = new Map<string, Array<{ id: string }>>();
  for (const event of events) {
    let endpoints = endpointsOf.get(event.type);
    if (!endpoints) endpointsOf.set(event.type, (endpoints = await endpointsForEvent(tx, workspaceId, event.type)));
    if (endpoints.length) await deliverToEndpoints(deps, tx, workspaceId, event, endpoints);
  }
}

async function deliverToEndpoints(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  event: EventRow,
  endpoints: Array<{ id: string }>,
): Promise<void> {
  const payload = JSON.stringify({ ...eventBody(event), workspace_id: workspaceId });
  for (const endpoint of endpoints) {
    const delivery = await insertDelivery(tx, workspaceId, deps.ids, {
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      messageId: event.id,
      payload,
      now: event.created_at,
    });
    if (delivery)
      await deps.jobs.enqueue(
        deliverWebhookJob,
        { workspace_id: workspaceId, delivery_id: delivery.id },
        { tx: tx as TransactionSql, id: attemptJobId(delivery.id, 1) },
      );
  }
}
