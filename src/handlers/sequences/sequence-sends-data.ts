// The send queries on a claimed sequence message (see sequence-messages-data.ts): the last-moment facts,
// the moves to sending, sent or an end, and what a sent message means for its enrollment and sequence.
import type postgres from 'postgres';
import { query, type Queryable } from '../../db/queryable.ts';
import { columns, type MessageRow } from './sequence-messages-data.ts';

/** An earlier message of an enrollment, as a later step in its thread needs it. */
export interface EarlierMessage {
  step: number;
  status: string;
  message_id_header: string | null;
  thread_id: string | null;
}

/** What decides, at the last moment, whether a claimed message may still go out, and what it is written from. */
export interface SendingFacts {
  message: MessageRow;
  sequence_status: string;
  sequence_revision: number;
  enrollment_status: string;
  lead: Record<string, unknown> | null;
  suppressed: boolean;
  /** The variant the enrollment's step-1 message went with (what a step answering the thread takes its subject from). */
  first_variant: number | null;
  /** The enrollment's messages before this one, in step order. */
  earlier: EarlierMessage[];
}

/** A message this sender holds: its id and the claim token it holds it by. */
export interface Held {
  id: string;
  token: string;
}

/** The facts of the held messages still claimed by their tokens (one query for the whole batch; gone ones are absent). */
export async function claimedFacts(q: Queryable, workspaceId: string, held: Held[]): Promise<SendingFacts[]> {
  if (held.length === 0) return [];
  const sql = query(q);
  const rows = await sql<Array<Omit<SendingFacts, 'message'> & MessageRow>>`
    with m as (
      select ${columns(q)} from sequence_messages
      where workspace_id = ${workspaceId} and status = 'claimed'
        and (id, claim_token) in (select * from unnest(${sql.array(held.map((h) => h.id))}::text[], ${sql.array(held.map((h) => h.token))}::text[])))
    select m.*, s.status as sequence_status, s.revision as sequence_revision, e.status as enrollment_status, to_jsonb(l) as lead,
      coalesce(l.status <> 'active' or exists (select 1 from lead_suppressions x where x.workspace_id = l.workspace_id
        and x.email_hash = encode(sha256(convert_to(l.email, 'UTF8')), 'hex')), false) as suppressed,
      (select f.variant from sequence_messages f where f.workspace_id = m.workspace_id and f.enrollment_id = m.enrollment_id and f.step = 1) as first_variant,
      coalesce((select json_agg(json_build_object('step', p.step, 'status', p.status, 'message_id_header', p.message_id_header, 'thread_id', p.thread_id) order by p.step)
        from sequence_messages p where p.workspace_id = m.workspace_id and p.enrollment_id = m.enrollment_id and p.step < m.step), '[]'::json) as earlier
    from m join sequence_enrollments e on e.id = m.enrollment_id join sequences s on s.id = e.sequence_id left join leads l on l.id = e.lead_id`;
  return rows.map(
    ({
      sequence_status,
      sequence_revision,
      enrollment_status,
      lead,
      suppressed,
      first_variant,
      earlier,
      ...message
    }) => ({
      message,
      sequence_status,
      sequence_revision,
      enrollment_status,
      lead,
      suppressed,
      first_variant,
      earlier,
    }),
  );
}

/** What a message goes out as, recorded with its move to `sending`. */
export interface Outgoing extends Held {
  to: string;
  subject: string;
  messageIdHeader: string;
  /** The variant it is written from (changed only when an edit took its own away). */
  variant: number | null;
  /** What the message carries: its pixel, and the original URLs of its rewritten links by index. */
  tracking: { opens: boolean; clicks: boolean; links: string[] };
}

/**
 * The message of each `v` row (`vid`, `vtoken`) in this workspace, while it is in `status` and still holds that
 * claim: one primary-key probe per row, locked (`held.held_id`). An update that joins the unnest to sequence_messages
 * by `workspace_id = … and id = v.vid` instead lets the planner read every message of the workspace through a
 * workspace index (`sequence_messages_page`, ANDed with another) when it underestimates the workspace, as it does
 * right after a launch materialized thousands of messages: 2–3.6 ms per group of 8 measured on PostgreSQL, for what
 * eight probes do in well under a millisecond. The lock keeps the subquery a probe per row: the planner cannot
 * merge a locking subquery into the join. Every row it yields is this workspace's, so the update joins by id alone.
 */
function heldByKey(sql: postgres.Sql, workspaceId: string, status: postgres.PendingQuery<postgres.Row[]>) {
  return sql`(select id as held_id from sequence_messages
              where id = v.vid and workspace_id = ${workspaceId} and ${status} and claim_token = v.vtoken
              for update) held`;
}

/** Moves held messages to `sending` in one statement (committed before any is handed over); returns the ids moved. */
export async function markSendingMany(
  q: Queryable,
  workspaceId: string,
  rows: Outgoing[],
  now: Date,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const sql = query(q);
  const col = <T extends string | number>(pick: (r: Outgoing) => T) => sql.array(rows.map(pick));
  const moved = await sql<{ id: string }[]>`
    update sequence_messages m set status = 'sending', to_email = v.to_email, subject = v.subject, message_id_header = v.mid,
      variant = nullif(v.variant, 0), tracked_opens = v.opens = 1, tracked_clicks = v.clicks = 1,
      tracked_links = nullif(v.links, '')::jsonb, sending_at = ${now}, updated_at = ${now}
    from unnest(${col((r) => r.id)}::text[], ${col((r) => r.token)}::text[], ${col((r) => r.to)}::text[],
                ${col((r) => r.subject)}::text[], ${col((r) => r.messageIdHeader)}::text[], ${col((r) => r.variant ?? 0)}::int[],
                ${col((r) => (r.tracking.opens ? 1 : 0))}::int[], ${col((r) => (r.tracking.clicks ? 1 : 0))}::int[],
                ${col((r) => (r.tracking.clicks ? JSON.stringify(r.tracking.links) : ''))}::text[])
         as v(vid, vtoken, to_email, subject, mid, variant, opens, clicks, links)
    cross join lateral ${heldByKey(sql, workspaceId, sql`status = 'claimed'`)}
    where m.id = held.held_id
    returning m.id`;
  return new Set(moved.map((r) => r.id));
}

/** Sent: from `sending`, or from `uncertain` when a sweep gave up on a sender that then answered after all. */
export async function markSentMany(
  q: Queryable,
  workspaceId: string,
  rows: Array<Held & { providerMessageId: string; threadId: string | null }>,
  now: Date,
): Promise<MessageRow[]> {
  if (rows.length === 0) return [];
  const sql = query(q);
  return sql<MessageRow[]>`
    update sequence_messages set status = 'sent', provider_message_id = v.pid, thread_id = nullif(v.thread, ''), sent_at = ${now},
      error_code = null, error_message = null, updated_at = ${now}
    from unnest(${sql.array(rows.map((r) => r.id))}::text[], ${sql.array(rows.map((r) => r.token))}::text[],
                ${sql.array(rows.map((r) => r.providerMessageId))}::text[], ${sql.array(rows.map((r) => r.threadId ?? ''))}::text[])
         as v(vid, vtoken, pid, thread)
    cross join lateral ${heldByKey(sql, workspaceId, sql`status in ('sending', 'uncertain')`)}
    where sequence_messages.id = held.held_id
    returning ${columns(q)}`;
}

/**
 * After sent messages: each enrollment's next step is due at its time, or (no next step) the enrollment is
 * complete. An enrollment the sweep stopped as uncertain goes on: its message was sent after all.
 */
export async function advanceSentEnrollments(
  q: Queryable,
  workspaceId: string,
  rows: Array<{ enrollmentId: string; next: { step: number; dueAt: Date } | null }>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const sql = query(q);
  await sql`
    update sequence_enrollments e set updated_at = ${now},
      status = case when v.next_step = 0 then 'completed' else 'active' end,
      stop_reason = case when e.status = 'stopped' or v.next_step = 0 then null else e.stop_reason end,
      next_step = nullif(v.next_step, 0), next_due_at = nullif(v.due_at, '')::timestamptz
    from unnest(${sql.array(rows.map((r) => r.enrollmentId))}::text[], ${sql.array(rows.map((r) => r.next?.step ?? 0))}::int[],
                ${sql.array(rows.map((r) => r.next?.dueAt.toISOString() ?? ''))}::text[]) as v(vid, next_step, due_at)
    where e.workspace_id = ${workspaceId} and e.id = v.vid
      and (e.status = 'active' or (e.status = 'stopped' and e.stop_reason = 'uncertain'))`;
}

/**
 * How a held message ends. `scheduled` puts it back: `attempted` when the provider answered (429, 5xx), so
 * the attempt counts towards giving up; otherwise (released unsent, paused, no token) the claim's attempt
 * is taken back.
 */
export type MessageEnd =
  | { status: 'failed' | 'cancelled' | 'uncertain'; code: string; message: string }
  | { status: 'scheduled'; code: string; message: string; retryAt: Date; attempted?: boolean };

/** Ends (or puts back) a message this sender holds, claimed or sending. */
export async function settleMessage(
  q: Queryable,
  workspaceId: string,
  id: string,
  token: string,
  end: MessageEnd,
  now: Date,
): Promise<MessageRow | undefined> {
  const sql = query(q);
  const [row] = await sql<MessageRow[]>`
    update sequence_messages set status = ${end.status}, error_code = ${end.code}, error_message = ${end.message}, updated_at = ${now},
      ${end.status === 'scheduled' ? sql`scheduled_at = ${end.retryAt}, claim_token = null, claimed_at = null, sending_at = null${end.attempted ? sql`` : sql`, attempts = greatest(attempts - 1, 0)`}` : sql`claim_token = claim_token`}
    where workspace_id = ${workspaceId} and id = ${id} and status in ('claimed', 'sending') and claim_token = ${token}
    returning ${columns(q)}`;
  return row;
}

/** After a sent message: the enrollment's next step is due `dueAt`, or the enrollment is complete. */
export async function advanceEnrollment(
  q: Queryable,
  workspaceId: string,
  enrollmentId: string,
  next: { step: number; dueAt: Date } | null,
  now: Date,
): Promise<void> {
  await query(q)`
    update sequence_enrollments set updated_at = ${now},
      ${next ? query(q)`next_step = ${next.step}, next_due_at = ${next.dueAt}` : query(q)`status = 'completed', next_step = null, next_due_at = null, stop_reason = null`}
    where workspace_id = ${workspaceId} and id = ${enrollmentId} and status = 'active'`;
}

/** Messages stuck in `sending` past `before` may have been delivered: `uncertain`, never retried. */
export function markStaleSendingUncertainAcrossWorkspaces(
  q: Queryable,
  before: Date,
  now: Date,
): Promise<MessageRow[]> {
  return query(q)<MessageRow[]>`
    update sequence_messages set status = 'uncertain', error_code = 'sender_stopped',
      error_message = 'The sender stopped between handing the message to the provider and recording the answer; it may have been delivered, so it is not retried.',
      updated_at = ${now}
    where status = 'sending' and sending_at < ${before}
    returning ${columns(q)}`;
}

/** Sequences with nothing left to send: no active enrollment and no message in flight. */
export async function completeFinishedSequences(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  now: Date,
): Promise<Array<{ id: string }>> {
  const sql = query(q);
  // Two senders finishing the last two leads at once would each see the other's lead still active and neither
  // complete the sequence. A lock only completion checks take (so it cannot deadlock with anything that locks
  // the sequence row) makes them take turns, and the update below, a new statement and so a new snapshot under
  // READ COMMITTED, then sees what the first one committed.
  await sql`select pg_advisory_xact_lock(hashtextextended(${`sequence-complete:${sequenceId}`}, 0))`;
  return sql<Array<{ id: string }>>`
    update sequences s set status = 'completed', updated_at = ${now}
    where s.workspace_id = ${workspaceId} and s.id = ${sequenceId} and s.status = 'active'
      and not exists (select 1 from sequence_enrollments e where e.sequence_id = s.id and e.status = 'active')
      and not exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.status in ('scheduled', 'claimed', 'sending'))
    returning s.id`;
}
