// The webhook_endpoints table (deliveries: webhook-deliveries-data.ts). Tenant rows: every function takes the
// workspace id right after the queryable.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type EndpointStatus = 'enabled' | 'disabled';

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  secret_sealed: Uint8Array;
  status: EndpointStatus;
  disabled_reason: string | null;
  failure_count: number;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const endpointColumns = (q: Queryable) => query(q)`
  id, url, description, event_types, secret_sealed, status, disabled_reason, failure_count, failing_since,
  last_success_at, created_by, created_at, updated_at`;

export interface NewEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  secretSealed: Uint8Array;
  createdBy: string | null;
  now: Date;
}

/** The caller makes the id first: the sealed secret is bound to it. */
export function newEndpointId(ids: Ids): string {
  return ids.make('whe');
}

export async function insertEndpoint(q: Queryable, workspaceId: string, fields: NewEndpoint): Promise<EndpointRow> {
  const sql = query(q);
  const [row] = await sql<EndpointRow[]>`
    insert into webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, status, created_by, created_at, updated_at)
    values (${fields.id}, ${workspaceId}, ${fields.url}, ${fields.description}, ${sql.array(fields.eventTypes)}, ${fields.secretSealed},
            'enabled', ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${endpointColumns(q)}`;
  return row;
}

export function countEndpoints(q: Queryable, workspaceId: string): Promise<number> {
  return query(q)<
    { n: number }[]
  >`select count(*)::int as n from webhook_endpoints where workspace_id = ${workspaceId} and deleted_at is null`.then(
    ([r]) => r.n,
  );
}

export async function findEndpoint(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EndpointRow | undefined> {
  const sql = query(q);
  const [row] = await sql<EndpointRow[]>`
    select ${endpointColumns(q)} from webhook_endpoints
    where id = ${id} and workspace_id = ${workspaceId} and deleted_at is null
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

/** A page of the workspace's endpoints, newest first. */
export function listEndpoints(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound },
): Promise<EndpointRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<EndpointRow[]>`
    select ${endpointColumns(q)} from webhook_endpoints
    where workspace_id = ${workspaceId} and deleted_at is null
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** Enabled endpoints subscribed to `type` (exactly, by `resource.*`, or by `*`). */
export function endpointsForEvent(q: Queryable, workspaceId: string, type: string): Promise<Pick<EndpointRow, 'id'>[]> {
  const resource = `${type.split('.')[0]}.*`;
  const sql = query(q);
  return sql<Pick<EndpointRow, 'id'>[]>`
    select id from webhook_endpoints
    where workspace_id = ${workspaceId} and deleted_at is null and status = 'enabled'
      and event_types && ${sql.array([type, resource, '*'])}::text[]`;
}

export async function updateEndpoint(
  q: Queryable,
  workspaceId: string,
  id: string,
  change: { url?: string; description?: string; eventTypes?: string[]; enable?: boolean; now: Date },
): Promise<EndpointRow | undefined> {
  const sql = query(q);
  const [row] = await sql<EndpointRow[]>`
    update webhook_endpoints set
      url = coalesce(${change.url ?? null}, url),
      description = coalesce(${change.description ?? null}, description),
      event_types = coalesce(${change.eventTypes ? sql.array(change.eventTypes) : null}::text[], event_types),
      ${change.enable === true ? sql`status = 'enabled', disabled_reason = null, failure_count = 0, failing_since = null,` : sql``}
      ${change.enable === false ? sql`status = 'disabled', disabled_reason = 'disabled_by_user',` : sql``}
      updated_at = ${change.now}
    where id = ${id} and workspace_id = ${workspaceId} and deleted_at is null
    returning ${endpointColumns(q)}`;
  return row;
}

/** Soft delete: deliveries keep their endpoint; pending ones are cancelled. */
export async function deleteEndpoint(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<EndpointRow | undefined> {
  const sql = query(q);
  const [row] = await sql<EndpointRow[]>`
    update webhook_endpoints set deleted_at = ${now}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and deleted_at is null
    returning ${endpointColumns(q)}`;
  if (row) {
    await sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null, updated_at = ${now}
              where workspace_id = ${workspaceId} and endpoint_id = ${id} and status = 'pending'`;
  }
  return row;
}

/** A failed attempt: counts it and starts (or continues) the endpoint's run of failures. */
export async function recordEndpointFailure(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<EndpointRow | undefined> {
  const [row] = await query(q)<EndpointRow[]>`
    update webhook_endpoints set failure_count = failure_count + 1, failing_since = coalesce(failing_since, ${now}), updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${endpointColumns(q)}`;
  return row;
}

export async function recordEndpointSuccess(q: Queryable, workspaceId: string, id: string, now: Date): Promise<void> {
  await query(q)`
    update webhook_endpoints set failure_count = 0, failing_since = null, last_success_at = ${now}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}`;
}

/** Disables an enabled endpoint; undefined when it was not enabled (so its event is written once). */
export async function disableEndpoint(
  q: Queryable,
  workspaceId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<EndpointRow | undefined> {
  const sql = query(q);
  const [row] = await sql<EndpointRow[]>`
    update webhook_endpoints set status = 'disabled', disabled_reason = ${reason}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'enabled' and deleted_at is null
    returning ${endpointColumns(q)}`;
  if (row) {
    await sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null, updated_at = ${now}
              where workspace_id = ${workspaceId} and endpoint_id = ${id} and status = 'pending'`;
  }
  return row;
}
