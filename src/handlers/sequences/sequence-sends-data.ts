// The send queries on a claimed sequence message (see sequence-messages-data.ts): the last-moment facts,
// the moves to sending, sent or an end, and what a sent message means for its enrollment and sequence.
import { query, type Queryable } from '../../db/queryable.ts';
import { columns, type MessageRow } from './sequence-messages-data.ts';

/** What decides, at the last moment, whether a claimed message may still go out. */
export interface SendingFacts {
  message: MessageRow;
  sequence_status: string;
  sequence_revision: number;
  enrollment_status: string;
  lead: Record<string, unknown> | null;
  suppressed: boolean;
}

export async function lockClaimedMessage(
  q: Queryable,
  workspaceId: string,
  id: string,
  token: string,
): Promise<SendingFacts | undefined> {
  const sql = query(q);
  const [message] = await sql<MessageRow[]>`
    select ${columns(q)} from sequence_messages where workspace_id = ${workspaceId} and id = ${id} and status = 'claimed' and claim_token = ${token} for update`;
  if (!message) return undefined;
  const [facts] = await sql<Array<Omit<SendingFacts, 'message'>>>`
    select s.status as sequence_status, s.revision as sequence_revision, e.status as enrollment_status, to_jsonb(l) as lead,
      coalesce(l.status <> 'active' or exists (select 1 from lead_suppressions x where x.workspace_id = l.workspace_id
        and x.email_hash = encode(sha256(convert_to(l.email, 'UTF8')), 'hex')), false) as suppressed
    from sequence_enrollments e join sequences s on s.id = e.sequence_id left join leads l on l.id = e.lead_id
    where e.id = ${message.enrollment_id}`;
  return { message, ...facts };
}

export async function markSending(
  q: Queryable,
  workspaceId: string,
  id: string,
  token: string,
  fields: {
    to: string;
    subject: string;
    messageIdHeader: string;
    /** What the message carries: its pixel, and the original URLs of its rewritten links by index. */
    tracking: { opens: boolean; clicks: boolean; links: string[] };
    now: Date;
  },
): Promise<boolean> {
  const sql = query(q);
  const { opens, clicks, links } = fields.tracking;
  const rows = await sql`
    update sequence_messages set status = 'sending', to_email = ${fields.to}, subject = ${fields.subject}, message_id_header = ${fields.messageIdHeader},
      tracked_opens = ${opens}, tracked_clicks = ${clicks}, tracked_links = ${clicks ? sql.json(links) : null},
      sending_at = ${fields.now}, updated_at = ${fields.now}
    where workspace_id = ${workspaceId} and id = ${id} and status = 'claimed' and claim_token = ${token} returning id`;
  return rows.length === 1;
}

/** Sent: from `sending`, or from `uncertain` when a sweep gave up on a sender that then answered after all. */
export async function markSent(
  q: Queryable,
  workspaceId: string,
  id: string,
  token: string,
  fields: { providerMessageId: string; threadId: string | null; now: Date },
): Promise<MessageRow | undefined> {
  const [row] = await query(q)<MessageRow[]>`
    update sequence_messages set status = 'sent', provider_message_id = ${fields.providerMessageId}, thread_id = ${fields.threadId}, sent_at = ${fields.now},
      error_code = null, error_message = null, updated_at = ${fields.now}
    where workspace_id = ${workspaceId} and id = ${id} and status in ('sending', 'uncertain') and claim_token = ${token}
    returning ${columns(q)}`;
  return row;
}

/** An earlier message of an enrollment, as a later step in its thread needs it. */
export interface EarlierMessage {
  step: number;
  status: string;
  message_id_header: string | null;
  thread_id: string | null;
}

/** The enrollment's messages before `step`, in step order. */
export function earlierMessages(
  q: Queryable,
  workspaceId: string,
  enrollmentId: string,
  step: number,
): Promise<EarlierMessage[]> {
  return query(q)<EarlierMessage[]>`
    select step, status, message_id_header, thread_id from sequence_messages
    where workspace_id = ${workspaceId} and enrollment_id = ${enrollmentId} and step < ${step}
    order by step`;
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

/** A message the sweep gave up on was sent after all: its enrollment, stopped as uncertain, goes on. */
export async function reopenUncertainEnrollment(
  q: Queryable,
  workspaceId: string,
  enrollmentId: string,
  now: Date,
): Promise<void> {
  await query(q)`
    update sequence_enrollments set status = 'active', stop_reason = null, updated_at = ${now}
    where workspace_id = ${workspaceId} and id = ${enrollmentId} and status = 'stopped' and stop_reason = 'uncertain'`;
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
