// Opens and clicks of tracked messages (migration 0021): every hit in tracking_events, and the first human open
// and click on the message row. A hit locks its message row first, so two hits of one message are recorded one
// after the other and "the first" is never decided twice.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type TrackingKind = 'open' | 'click';

export interface TrackedMessageRow {
  id: string;
  workspace_id: string;
  sequence_id: string;
  lead_id: string | null;
  step: number;
  sending_at: Date | null;
  sent_at: Date | null;
  tracked_opens: boolean;
  tracked_clicks: boolean;
  tracked_links: string[] | null;
  opened_at: Date | null;
  clicked_at: Date | null;
}

export async function lockTrackedMessage(
  q: Queryable,
  workspaceId: string,
  id: string,
): Promise<TrackedMessageRow | undefined> {
  const [row] = await query(q)<TrackedMessageRow[]>`
    select id, workspace_id, sequence_id, lead_id, step, sending_at, sent_at, tracked_opens, tracked_clicks, tracked_links,
      opened_at, clicked_at
    from sequence_messages where workspace_id = ${workspaceId} and id = ${id} for update`;
  return row;
}

/**
 * Whether an earlier hit of this message and kind was a machine's, or came from Google's image proxy. An `exists`
 * stops at the first such row, so a message hit thousands of times is not read whole on every hit.
 */
export async function earlierHit(
  q: Queryable,
  workspaceId: string,
  messageId: string,
  kind: TrackingKind,
  which: 'machine' | 'google_proxy',
): Promise<boolean> {
  const sql = query(q);
  const [row] = await sql<[{ found: boolean }]>`
    select exists (select 1 from tracking_events where workspace_id = ${workspaceId} and message_id = ${messageId}
      and kind = ${kind} and ${which === 'machine' ? sql`machine` : sql`user_agent ilike '%GoogleImageProxy%'`}) as found`;
  return row.found;
}

export interface TrackingEventFields {
  messageId: string;
  kind: TrackingKind;
  link: number | null;
  url: string | null;
  machine: boolean;
  machineReason: string | null;
  userAgent: string | null;
  now: Date;
}

export async function insertTrackingEvent(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  f: TrackingEventFields,
): Promise<void> {
  await query(q)`
    insert into tracking_events (id, workspace_id, message_id, kind, link_index, url, machine, machine_reason, user_agent, created_at)
    values (${ids.make('trk')}, ${workspaceId}, ${f.messageId}, ${f.kind}, ${f.link}, ${f.url}, ${f.machine}, ${f.machineReason},
            ${f.userAgent}, ${f.now})`;
}

/** Sets opened_at or clicked_at unless already set; true when this call set it (the first human hit). */
export async function markFirstHuman(
  q: Queryable,
  workspaceId: string,
  id: string,
  kind: TrackingKind,
  now: Date,
): Promise<boolean> {
  const sql = query(q);
  const rows = await sql`
    update sequence_messages set ${kind === 'open' ? sql`opened_at = ${now}` : sql`clicked_at = ${now}`}
    where workspace_id = ${workspaceId} and id = ${id} and ${kind === 'open' ? sql`opened_at is null` : sql`clicked_at is null`}
    returning id`;
  return rows.length === 1;
}
