// Webinars (migration 0017). Tenant rows: every function takes the workspace id right after the queryable,
// except the lookup by public id, which is how the public registration page finds its webinar.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type WebinarStatus = 'scheduled' | 'cancelled';

export interface WebinarFields {
  title: string;
  description: string;
  start_at: Date;
  duration_minutes: number;
  timezone: string;
  capacity: number | null;
  meeting_url: string;
  sender_connector_id: string;
}

export interface WebinarRow extends WebinarFields {
  id: string;
  workspace_id: string;
  public_id: string;
  status: WebinarStatus;
  ical_sequence: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
}

export interface WebinarCounts {
  registered: number;
  joined: number;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, public_id, title, description, start_at, duration_minutes, timezone, capacity, meeting_url,
  sender_connector_id, status, ical_sequence, created_by, created_at, updated_at, cancelled_at`;

export async function insertWebinar(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: WebinarFields & { publicId: string; createdBy: string | null; now: Date },
): Promise<WebinarRow> {
  const [row] = await query(q)<WebinarRow[]>`
    insert into webinars (id, workspace_id, public_id, title, description, start_at, duration_minutes, timezone, capacity, meeting_url,
                          sender_connector_id, status, ical_sequence, created_by, created_at, updated_at)
    values (${ids.make('web')}, ${workspaceId}, ${fields.publicId}, ${fields.title}, ${fields.description}, ${fields.start_at}, ${fields.duration_minutes},
            ${fields.timezone}, ${fields.capacity}, ${fields.meeting_url}, ${fields.sender_connector_id}, 'scheduled', 0, ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function findWebinar(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebinarRow | undefined> {
  const sql = query(q);
  const [row] = await sql<WebinarRow[]>`
    select ${columns(q)} from webinars where id = ${id} and workspace_id = ${workspaceId} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

/** The public registration page's lookup: the public id is the only thing its URL carries. */
export async function findWebinarByPublicId(
  q: Queryable,
  publicId: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebinarRow | undefined> {
  const sql = query(q);
  const [row] = await sql<WebinarRow[]>`
    select ${columns(q)} from webinars where public_id = ${publicId} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export function listWebinarRows(
  q: Queryable,
  workspaceId: string,
  page: { statuses: WebinarStatus[]; before?: PageBound; limit: number },
): Promise<WebinarRow[]> {
  const sql = query(q);
  return sql<WebinarRow[]>`
    select ${columns(q)} from webinars
    where workspace_id = ${workspaceId}
      ${page.statuses.length ? sql`and status = any(${sql.array(page.statuses)}::text[])` : sql``}
      ${page.before ? sql`and (created_at, id) < (${page.before.at}::timestamptz, ${page.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** Replaces the editable fields; a change the invitation shows bumps its SEQUENCE. */
export async function updateWebinarFields(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: WebinarFields,
  change: { invitationChanged: boolean; now: Date },
): Promise<WebinarRow> {
  const sql = query(q);
  const [row] = await sql<WebinarRow[]>`
    update webinars set title = ${fields.title}, description = ${fields.description}, start_at = ${fields.start_at},
      duration_minutes = ${fields.duration_minutes}, timezone = ${fields.timezone}, capacity = ${fields.capacity},
      meeting_url = ${fields.meeting_url}, sender_connector_id = ${fields.sender_connector_id},
      ical_sequence = ical_sequence + ${change.invitationChanged ? 1 : 0}, updated_at = ${change.now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${columns(q)}`;
  return row;
}

/** Cancels a scheduled webinar (its invitation's SEQUENCE grows, as RFC 5546 wants for a CANCEL); undefined when it was not scheduled. */
export async function cancelWebinarRow(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<WebinarRow | undefined> {
  const [row] = await query(q)<WebinarRow[]>`
    update webinars set status = 'cancelled', cancelled_at = ${now}, updated_at = ${now}, ical_sequence = ical_sequence + 1
    where id = ${id} and workspace_id = ${workspaceId} and status = 'scheduled'
    returning ${columns(q)}`;
  return row;
}

/** Counted from the registrants themselves, so the numbers cannot drift from what happened. */
export async function webinarCounts(
  q: Queryable,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, WebinarCounts>> {
  const sql = query(q);
  const rows = await sql<Array<WebinarCounts & { webinar_id: string }>>`
    select webinar_id, count(*) filter (where status = 'registered')::int as registered,
           count(*) filter (where status = 'registered' and joined_at is not null)::int as joined
    from webinar_registrants
    where workspace_id = ${workspaceId} and webinar_id = any(${sql.array(ids)}::text[])
    group by webinar_id`;
  return new Map(rows.map(({ webinar_id, ...counts }) => [webinar_id, counts]));
}

/** The workspace's most recently connected Gmail connector: the default sender. */
export async function newestConnectedGmail(q: Queryable, workspaceId: string): Promise<string | undefined> {
  const [row] = await query(q)<Array<{ id: string }>>`
    select id from connectors where workspace_id = ${workspaceId} and provider = 'gmail' and status = 'connected'
    order by connected_at desc nulls last, id desc limit 1`;
  return row?.id;
}
