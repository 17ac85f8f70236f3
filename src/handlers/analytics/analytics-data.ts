// Outreach figures counted in SQL from the sequence messages themselves (migration 0013, 0018, 0020), so
// they agree with list_sent_messages. A counted message is one the provider accepted (`sent`) or refused at
// once as a bounce (`failed` with error_code `bounced`); it counts on the day, step and mailbox of its send
// (`sent_at`; an immediate bounce has none, so its attempt, `sending_at`). What came back counts against the
// message it answered (`reply_state`, which a later answer overwrites except a bounce). An unsubscribe through
// a message's link is recorded only as a `lead.unsubscribed` event naming the sequence: it counts against the
// last message that sequence sent the lead before it.
import { query, type Queryable } from '../../db/queryable.ts';
import type { AnalyticsRange, Dimension } from './analytics-range.ts';

export interface FigureCounts {
  sent: number;
  bounced: number;
  replied: number;
  auto_replied: number;
  unsubscribed: number;
}

export interface GroupRow extends FigureCounts {
  step?: number;
  sequence_id?: string;
  sequence_name?: string;
  connector_id?: string;
  mailbox?: string | null;
  day?: string;
}

/** The columns of `counted` each dimension groups by. */
const KEYS: Record<Dimension, string[]> = {
  sequence: ['sequence_id'],
  step: ['step'],
  mailbox: ['connector_id'],
  day: ['day'],
};

export async function outreachFigures(
  q: Queryable,
  workspaceId: string,
  range: AnalyticsRange,
  sequenceId?: string,
): Promise<GroupRow[]> {
  const sql = query(q);
  const keys = range.groupBy.flatMap((d) => KEYS[d]);
  // Grouped as a date, written as text once per group: a cast per message costs as much as the grouping.
  const selected = keys
    .map((k) => (k === 'day' ? sql`day::text as day` : sql(k)))
    .reduce((list, key, i) => (i ? sql`${list}, ${key}` : key), sql``);
  const sentAt = sql`coalesce(m.sent_at, m.sending_at)`;
  const start =
    range.from === null ? sql`` : sql`and ${sentAt} >= (${range.from}::date)::timestamp at time zone ${range.timezone}`;
  const bySequence = sequenceId ? sql`and m.sequence_id = ${sequenceId}` : sql``;
  return sql<GroupRow[]>`
    with unsubscribed_by_link as (
      select distinct last.id from events e
      cross join lateral (
        select m.id from sequence_messages m
        where m.workspace_id = ${workspaceId} and m.sequence_id = e.data->>'sequence_id' and m.lead_id = e.data->>'id'
          and m.status = 'sent' and m.sent_at <= e.created_at
        order by m.sent_at desc, m.id desc limit 1) last
      where e.workspace_id = ${workspaceId} and e.type = 'lead.unsubscribed' and e.data ? 'sequence_id'
        ${sequenceId ? sql`and e.data->>'sequence_id' = ${sequenceId}` : sql``}
    ),
    counted as (
      select m.sequence_id, m.step, m.connector_id, (${sentAt} at time zone ${range.timezone})::date as day,
        m.status = 'failed' or m.reply_state = 'bounced' as bounced, m.reply_state, u.id is not null as by_link
      from sequence_messages m left join unsubscribed_by_link u on u.id = m.id
      where m.workspace_id = ${workspaceId} ${bySequence}
        and (m.status = 'sent' or (m.status = 'failed' and m.error_code = 'bounced'))
        ${start}
        and ${sentAt} < ((${range.to}::date + 1)::timestamp at time zone ${range.timezone})
    ),
    grouped as (
      select ${keys.length ? sql`${selected},` : sql``}
        count(*)::int as sent,
        count(*) filter (where bounced)::int as bounced,
        count(*) filter (where reply_state = 'replied')::int as replied,
        count(*) filter (where reply_state = 'auto_replied')::int as auto_replied,
        count(*) filter (where reply_state = 'unsubscribe_request' or by_link)::int as unsubscribed
      from counted
      ${keys.length ? sql`group by ${sql(keys)}` : sql``}
    )
    select g.*
      ${keys.includes('sequence_id') ? sql`, s.name as sequence_name` : sql``}
      ${keys.includes('connector_id') ? sql`, c.account_email as mailbox` : sql``}
    from grouped g
    ${keys.includes('sequence_id') ? sql`left join sequences s on s.id = g.sequence_id and s.workspace_id = ${workspaceId}` : sql``}
    ${keys.includes('connector_id') ? sql`left join connectors c on c.id = g.connector_id and c.workspace_id = ${workspaceId}` : sql``}
    ${keys.length ? sql`order by ${sql(keys)}` : sql``}`;
}
