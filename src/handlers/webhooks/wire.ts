// Webhook endpoints and deliveries as the contract shows them (the secret never, after creation).
import type { DeliveryRow } from './webhook-deliveries-data.ts';
import type { EndpointRow } from './webhook-endpoints-data.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const endpointBody = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: [...e.event_types],
  status: e.status,
  disabled_reason: e.disabled_reason,
  failure_count: e.failure_count,
  failing_since: iso(e.failing_since),
  last_success_at: iso(e.last_success_at),
  created_by: e.created_by,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export const deliveryBody = (d: DeliveryRow) => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  event_id: d.event_id,
  event_type: d.event_type,
  message_id: d.message_id,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: iso(d.next_attempt_at),
  last_attempt_at: iso(d.last_attempt_at),
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  attempt_log: d.attempt_log,
  created_at: d.created_at.toISOString(),
});
