// The sender's claim queries on sequence messages (see sequence-messages-data.ts): which sequences to visit,
// due steps turned into messages, the sends counted against limits, and claims taken and released.
import type { Ids } from '../../deps.ts';
import type { SequenceRow } from './sequences-data.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import { columns, type MessageRow } from './sequence-messages-data.ts';

/** Active sequences, in any workspace, with a step due or a message waiting: what the dispatcher visits. */
export function activeSequencesAcrossWorkspaces(
  q: Queryable,
  now: Date,
): Promise<Array<{ workspace_id: string; id: string; sender_connector_ids: string[] }>> {
  return query(q)<Array<{ workspace_id: string; id: string; sender_connector_ids: string[] }>>`
    select s.workspace_id, s.id, s.sender_connector_ids from sequences s
    where s.status = 'active' and cardinality(s.sender_connector_ids) > 0 and (
      exists (select 1 from sequence_enrollments e where e.sequence_id = s.id and e.status = 'active' and e.next_due_at <= ${now})
      or exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.status = 'scheduled' and m.scheduled_at <= ${now}))`;
}

/**
 * Turns due steps into scheduled messages (at most `limit`): one row per (enrollment, step), so a step
 * that already has its message is not given another. Each message goes from the mailbox its enrollment is
 * pinned to; an enrollment not pinned yet waits (mailbox-pinning.ts). The enrollment then waits for that message.
 * Each row carries the variant `variantOf` picks for it (null for a step without variants), for good.
 */
export async function materializeDueMessages(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: {
    sequenceId: string;
    now: Date;
    limit: number;
    variantOf: (enrollmentId: string, step: number) => number | null;
  },
): Promise<number> {
  const sql = query(q);
  const due = await sql<
    { id: string; lead_id: string | null; next_step: number; connector_id: string; mode: string }[]
  >`
    select e.id, e.lead_id, e.next_step, e.connector_id, c.mode from sequence_enrollments e join connectors c on c.id = e.connector_id
    where e.workspace_id = ${workspaceId} and e.sequence_id = ${fields.sequenceId} and e.status = 'active' and e.next_due_at <= ${fields.now}
    order by e.next_due_at, e.id limit ${fields.limit} for update of e skip locked`;
  if (due.length === 0) return 0;
  const inserted = await sql`
    insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, lead_id, step, variant, connector_id, mode, status, scheduled_at, created_at, updated_at)
    select m.id, ${workspaceId}, ${fields.sequenceId}, m.enrollment_id, nullif(m.lead_id, ''), m.step, nullif(m.variant, 0), m.connector_id, m.mode, 'scheduled', ${fields.now}, ${fields.now}, ${fields.now}
    from unnest(${sql.array(due.map(() => ids.make('msg')))}::text[], ${sql.array(due.map((d) => d.id))}::text[],
                ${sql.array(due.map((d) => d.lead_id ?? ''))}::text[], ${sql.array(due.map((d) => d.next_step))}::int[],
                ${sql.array(due.map((d) => d.connector_id))}::text[], ${sql.array(due.map((d) => d.mode))}::text[],
                ${sql.array(due.map((d) => fields.variantOf(d.id, d.next_step) ?? 0))}::int[])
           as m(id, enrollment_id, lead_id, step, connector_id, mode, variant)
    on conflict (enrollment_id, step) do nothing
    returning id`;
  await sql`update sequence_enrollments set next_due_at = null, updated_at = ${fields.now} where id = any(${sql.array(due.map((d) => d.id))}::text[])`;
  return inserted.length;
}

/** The mailboxes holding a message of the sequence that is due: the ones the dispatcher wakes. */
export async function mailboxesWithDueMessages(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  now: Date,
): Promise<string[]> {
  const rows = await query(q)<{ connector_id: string }[]>`
    select distinct connector_id from sequence_messages
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and status = 'scheduled' and scheduled_at <= ${now}`;
  return rows.map((r) => r.connector_id);
}

/** Messages of a sequence that count against a limit since `since`: handed over, being handed, or reserved. */
export async function countSequenceSendsSince(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  since: Date,
): Promise<number> {
  const [row] = await query(q)<{ n: number }[]>`
    select count(*)::int as n from sequence_messages
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and status in ('claimed', 'sending', 'sent', 'uncertain') and claimed_at >= ${since}`;
  return row.n;
}

/** Messages of a mailbox that count against its limit since `since`, across all sequences. */
export async function countMailboxSendsSince(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  since: Date,
): Promise<number> {
  return (await countMailboxesSendsSince(q, workspaceId, [connectorId], since)).get(connectorId) ?? 0;
}

/** The same count for several mailboxes at once, by connector id (absent: none). */
export async function countMailboxesSendsSince(
  q: Queryable,
  workspaceId: string,
  connectorIds: string[],
  since: Date,
): Promise<Map<string, number>> {
  if (connectorIds.length === 0) return new Map();
  const sql = query(q);
  const rows = await sql<{ connector_id: string; n: number }[]>`
    select connector_id, count(*)::int as n from sequence_messages
    where workspace_id = ${workspaceId} and connector_id = any(${sql.array(connectorIds)}::text[])
      and status in ('claimed', 'sending', 'sent', 'uncertain') and claimed_at >= ${since}
    group by connector_id`;
  return new Map(rows.map((r) => [r.connector_id, r.n]));
}

/**
 * The mailbox's last `window` sends (accepted, uncertain, or refused at once as a bounce), newest by claim, and
 * how many of them hard-bounced: refused at once, or bounced back later (a permanent DSN sets reply_state).
 */
export async function recentHardBounces(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  window: number,
): Promise<{ sends: number; hard_bounces: number }> {
  const [row] = await query(q)<{ sends: number; hard_bounces: number }[]>`
    select count(*)::int as sends,
      count(*) filter (where status = 'failed' or reply_state = 'bounced')::int as hard_bounces
    from (select status, reply_state from sequence_messages
          where workspace_id = ${workspaceId} and connector_id = ${connectorId}
            and status in ('sent', 'uncertain', 'failed') and (status <> 'failed' or error_code = 'bounced')
          order by claimed_at desc, id desc limit ${window}) m`;
  return row;
}

/** Serializes the claimers of one mailbox until the transaction ends (limits are counted, then claimed). */
export async function lockMailbox(q: Queryable, connectorId: string): Promise<void> {
  await query(q)`select pg_advisory_xact_lock(hashtextextended(${`mailbox:${connectorId}`}, 0))`;
}

/** The active sequences with a message due now from this mailbox, the longest-running first. */
export function sequencesWithDueMessages(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  now: Date,
): Promise<SequenceRow[]> {
  return query(q)<SequenceRow[]>`
    select s.* from sequences s
    where s.workspace_id = ${workspaceId} and s.status = 'active'
      and exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.connector_id = ${connectorId}
                    and m.status = 'scheduled' and m.scheduled_at <= ${now})
    order by s.launched_at, s.id`;
}

/** Reserves up to `limit` scheduled messages of a sequence from one mailbox for one sender (skipping rows another sender holds). */
export function claimMessages(
  q: Queryable,
  workspaceId: string,
  fields: { sequenceId: string; connectorId: string; limit: number; token: string; now: Date },
): Promise<MessageRow[]> {
  const sql = query(q);
  return sql<MessageRow[]>`
    update sequence_messages set status = 'claimed', claim_token = ${fields.token}, claimed_at = ${fields.now}, attempts = attempts + 1, updated_at = ${fields.now}
    where id in (
      select id from sequence_messages
      where workspace_id = ${workspaceId} and sequence_id = ${fields.sequenceId} and connector_id = ${fields.connectorId}
        and status = 'scheduled' and scheduled_at <= ${fields.now}
      order by scheduled_at, id limit ${fields.limit} for update skip locked)
    returning ${columns(q)}`;
}

/** Claims whose sender went silent past `before` never reached the provider: they go back to scheduled. */
export async function releaseStaleClaimsAcrossWorkspaces(q: Queryable, before: Date, now: Date): Promise<number> {
  const rows = await query(q)`
    update sequence_messages set status = 'scheduled', claim_token = null, claimed_at = null, attempts = greatest(attempts - 1, 0), updated_at = ${now}
    where status = 'claimed' and claimed_at < ${before} returning id`;
  return rows.length;
}
