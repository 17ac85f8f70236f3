// The webhook_deliveries table. Tenant rows: every function takes the workspace id right after the queryable.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** One attempt of a delivery, as attempt_log keeps it. */
export interface AttemptLogEntry {
  attempt: number;
  status_code: number | null;
  error: string | null;
  attempted_at: string;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string | null;
  event_type: string;
  message_id: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  attempt_log: AttemptLogEntry[];
  created_at: Date;
  updated_at: Date;
}

const deliveryColumns = (q: Queryable) => query(q)`
  id, endpoint_id, event_id, event_type, message_id, payload, status, attempts, next_attempt_at, last_attempt_at,
  last_status_code, last_error, attempt_log, created_at, updated_at`;

export interface NewDelivery {
  endpointId: string;
  eventId: string | null;
  eventType: string;
  messageId: string;
  payload: string;
  now: Date;
}

/** Undefined when the endpoint already has this message (a repeated fan-out). */
export async function insertDelivery(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: NewDelivery,
): Promise<DeliveryRow | undefined> {
  const [row] = await query(q)<DeliveryRow[]>`
    insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, message_id, payload, status, next_attempt_at, created_at, updated_at)
    values (${ids.make('whd')}, ${workspaceId}, ${fields.endpointId}, ${fields.eventId}, ${fields.eventType}, ${fields.messageId},
            ${fields.payload}, 'pending', ${fields.now}, ${fields.now}, ${fields.now})
    on conflict (endpoint_id, message_id) do nothing
    returning ${deliveryColumns(q)}`;
  return row;
}

export async function findDelivery(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DeliveryRow | undefined> {
  const sql = query(q);
  const [row] = await sql<DeliveryRow[]>`
    select ${deliveryColumns(q)} from webhook_deliveries where id = ${id} and workspace_id = ${workspaceId}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export interface AttemptRecord {
  /** The attempt's number; the update applies only if the row has not counted it yet. */
  attempt: number;
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  now: Date;
}

/** Records attempt `attempt` of a pending delivery; undefined when it was already recorded or the delivery ended. */
export async function recordAttempt(
  q: Queryable,
  workspaceId: string,
  id: string,
  record: AttemptRecord,
): Promise<DeliveryRow | undefined> {
  const [row] = await query(q)<DeliveryRow[]>`
    update webhook_deliveries set status = ${record.status}, attempts = ${record.attempt}, last_attempt_at = ${record.now},
      last_status_code = ${record.statusCode}, last_error = ${record.error}, next_attempt_at = ${record.nextAttemptAt}, updated_at = ${record.now},
      attempt_log = attempt_log || jsonb_build_array(jsonb_build_object(
        'attempt', ${record.attempt}::int, 'status_code', ${record.statusCode}::int, 'error', ${record.error}::text,
        'attempted_at', ${record.now.toISOString()}::text))
    where id = ${id} and workspace_id = ${workspaceId} and status = 'pending' and attempts = ${record.attempt - 1}
    returning ${deliveryColumns(q)}`;
  return row;
}

export interface DeliveryFilter {
  endpointId: string;
  statuses: DeliveryStatus[];
  before?: PageBound;
  limit: number;
}

/** A page of one endpoint's deliveries, newest first. */
export function listDeliveries(q: Queryable, workspaceId: string, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  const sql = query(q);
  const { before, statuses } = filter;
  return sql<DeliveryRow[]>`
    select ${deliveryColumns(q)} from webhook_deliveries
    where workspace_id = ${workspaceId} and endpoint_id = ${filter.endpointId}
      ${statuses.length ? sql`and status = any(${sql.array(statuses)}::text[])` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** Ends a pending delivery without another attempt (its endpoint was disabled or deleted). */
export async function cancelDelivery(
  q: Queryable,
  workspaceId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<void> {
  await query(q)`
    update webhook_deliveries set status = 'cancelled', next_attempt_at = null, last_error = coalesce(last_error, ${reason}), updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'pending'`;
}
