// A webinar's registrants (migration 0017). At most one live registration per address and webinar (a
// partial unique index); a removed registrant keeps its row, so its join link answers 404, not a redirect.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type RegistrantStatus = 'registered' | 'removed';

export interface RegistrantRow {
  id: string;
  workspace_id: string;
  webinar_id: string;
  lead_id: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  source: 'api' | 'page';
  status: RegistrantStatus;
  registered_at: Date;
  removed_at: Date | null;
  joined_at: Date | null;
}

export interface NewRegistrant {
  email: string;
  first_name: string | null;
  last_name: string | null;
  lead_id: string | null;
  source: 'api' | 'page';
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, webinar_id, lead_id, email, first_name, last_name, source, status, registered_at, removed_at, joined_at`;

/** Undefined when the address is already registered (the unique index decides, so two racing requests cannot both win). */
export async function insertRegistrant(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  webinarId: string,
  r: NewRegistrant,
  now: Date,
): Promise<RegistrantRow | undefined> {
  const [row] = await query(q)<RegistrantRow[]>`
    insert into webinar_registrants (id, workspace_id, webinar_id, lead_id, email, first_name, last_name, source, status, registered_at)
    values (${ids.make('wreg')}, ${workspaceId}, ${webinarId}, ${r.lead_id}, ${r.email}, ${r.first_name}, ${r.last_name}, ${r.source}, 'registered', ${now})
    on conflict (webinar_id, email) where status = 'registered' do nothing
    returning ${columns(q)}`;
  return row;
}

export async function findRegistrant(
  q: Queryable,
  workspaceId: string,
  id: string,
): Promise<RegistrantRow | undefined> {
  const [row] = await query(q)<
    RegistrantRow[]
  >`select ${columns(q)} from webinar_registrants where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function countRegistered(q: Queryable, workspaceId: string, webinarId: string): Promise<number> {
  const [row] = await query(q)<Array<{ n: number }>>`
    select count(*)::int as n from webinar_registrants where workspace_id = ${workspaceId} and webinar_id = ${webinarId} and status = 'registered'`;
  return row.n;
}

export function listRegistrants(
  q: Queryable,
  workspaceId: string,
  webinarId: string,
  page: { statuses: RegistrantStatus[]; after?: { at: string; id: string }; limit: number },
): Promise<RegistrantRow[]> {
  const sql = query(q);
  return sql<RegistrantRow[]>`
    select ${columns(q)} from webinar_registrants
    where workspace_id = ${workspaceId} and webinar_id = ${webinarId}
      ${page.statuses.length ? sql`and status = any(${sql.array(page.statuses)}::text[])` : sql``}
      ${page.after ? sql`and (registered_at, id) > (${page.after.at}::timestamptz, ${page.after.id})` : sql``}
    order by registered_at, id
    limit ${page.limit}`;
}

/** Every live registrant of a webinar (for the mail a change sends to all of them). */
export function registeredOf(q: Queryable, workspaceId: string, webinarId: string): Promise<RegistrantRow[]> {
  return query(q)<RegistrantRow[]>`
    select ${columns(q)} from webinar_registrants where workspace_id = ${workspaceId} and webinar_id = ${webinarId} and status = 'registered'`;
}

export async function removeRegistrantRow(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<RegistrantRow | undefined> {
  const [row] = await query(q)<RegistrantRow[]>`
    update webinar_registrants set status = 'removed', removed_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'registered'
    returning ${columns(q)}`;
  return row;
}

/** Records the first join only; undefined when the registrant had joined already. */
export async function markJoined(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<RegistrantRow | undefined> {
  const [row] = await query(q)<RegistrantRow[]>`
    update webinar_registrants set joined_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and joined_at is null
    returning ${columns(q)}`;
  return row;
}

/** Whether the address is on the workspace's suppression list (unsubscribed, bounced, do-not-contact, deleted). */
export async function isSuppressed(q: Queryable, workspaceId: string, emailHash: string): Promise<boolean> {
  const rows = await query(
    q,
  )`select 1 from lead_suppressions where workspace_id = ${workspaceId} and email_hash = ${emailHash}`;
  return rows.length > 0;
}
