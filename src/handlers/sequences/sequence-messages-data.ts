// The messages of sequences (migration 0013): one row per (enrollment, step), ever. The sender moves a row
// scheduled -> claimed (reserved against the limits, with a claim token) -> sending (committed just before
// the provider call) -> sent / failed, or back to scheduled after a refusal that sent nothing. Every move
// is conditional on the row's status and claim token, so a sender that was presumed dead and replaced
// cannot write over its replacement. The cross-workspace functions serve the sender and its sweeps and
// say so in their names.
import type { Ids } from '../../deps.ts';
import type { SequenceRow } from './sequences-data.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type MessageStatus = 'scheduled' | 'claimed' | 'sending' | 'sent' | 'failed' | 'cancelled' | 'uncertain';

export interface MessageRow {
  id: string;
  workspace_id: string;
  sequence_id: string;
  enrollment_id: string;
  lead_id: string | null;
  step: number;
  connector_id: string;
  mode: 'live' | 'sandbox';
  to_email: string | null;
  subject: string | null;
  status: MessageStatus;
  scheduled_at: Date;
  claim_token: string | null;
  claimed_at: Date | null;
  sent_at: Date | null;
  attempts: number;
  provider_message_id: string | null;
  message_id_header: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, sequence_id, enrollment_id, lead_id, step, connector_id, mode, to_email, subject, status, scheduled_at,
  claim_token, claimed_at, sent_at, attempts, provider_message_id, message_id_header, error_code, error_message, created_at`;

/** Active sequences, in any workspace, with a step due or a message waiting: what the dispatcher visits. */
export function activeSequencesAcrossWorkspaces(
  q: Queryable,
  now: Date,
): Promise<Array<{ workspace_id: string; id: string; sender_connector_id: string }>> {
  return query(q)<Array<{ workspace_id: string; id: string; sender_connector_id: string }>>`
    select s.workspace_id, s.id, s.sender_connector_id from sequences s
    where s.status = 'active' and s.sender_connector_id is not null and (
      exists (select 1 from sequence_enrollments e where e.sequence_id = s.id and e.status = 'active' and e.next_due_at <= ${now})
      or exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.status = 'scheduled' and m.scheduled_at <= ${now}))`;
}

/**
 * Turns due steps into scheduled messages (at most `limit`): one row per (enrollment, step), so a step
 * that already has its message is not given another. The enrollment then waits for that message.
 */
export async function materializeDueMessages(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: { sequenceId: string; connectorId: string; mode: 'live' | 'sandbox'; now: Date; limit: number },
): Promise<number> {
  const sql = query(q);
  const due = await sql<{ id: string; lead_id: string | null; next_step: number }[]>`
    select id, lead_id, next_step from sequence_enrollments
    where workspace_id = ${workspaceId} and sequence_id = ${fields.sequenceId} and status = 'active' and next_due_at <= ${fields.now}
    order by next_due_at, id limit ${fields.limit} for update skip locked`;
  if (due.length === 0) return 0;
  const inserted = await sql`
    insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, lead_id, step, connector_id, mode, status, scheduled_at, created_at, updated_at)
    select m.id, ${workspaceId}, ${fields.sequenceId}, m.enrollment_id, nullif(m.lead_id, ''), m.step, ${fields.connectorId}, ${fields.mode}, 'scheduled', ${fields.now}, ${fields.now}, ${fields.now}
    from unnest(${sql.array(due.map(() => ids.make('msg')))}::text[], ${sql.array(due.map((d) => d.id))}::text[],
                ${sql.array(due.map((d) => d.lead_id ?? ''))}::text[], ${sql.array(due.map((d) => d.next_step))}::int[]) as m(id, enrollment_id, lead_id, step)
    on conflict (enrollment_id, step) do nothing
    returning id`;
  await sql`update sequence_enrollments set next_due_at = null, updated_at = ${fields.now} where id = any(${sql.array(due.map((d) => d.id))}::text[])`;
  return inserted.length;
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

export async function countMailboxSendsSince(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  since: Date,
): Promise<number> {
  const [row] = await query(q)<{ n: number }[]>`
    select count(*)::int as n from sequence_messages
    where workspace_id = ${workspaceId} and connector_id = ${connectorId} and status in ('claimed', 'sending', 'sent', 'uncertain') and claimed_at >= ${since}`;
  return row.n;
}

/** Serializes the claimers of one mailbox until the transaction ends (limits are counted, then claimed). */
export async function lockMailbox(q: Queryable, connectorId: string): Promise<void> {
  await query(q)`select pg_advisory_xact_lock(hashtextextended(${`mailbox:${connectorId}`}, 0))`;
}

/** The mailbox's active sequences with a message due now, the longest-running first. */
export function sequencesWithDueMessages(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  now: Date,
): Promise<SequenceRow[]> {
  return query(q)<SequenceRow[]>`
    select s.* from sequences s
    where s.workspace_id = ${workspaceId} and s.sender_connector_id = ${connectorId} and s.status = 'active'
      and exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.status = 'scheduled' and m.scheduled_at <= ${now})
    order by s.launched_at, s.id`;
}

/** Reserves up to `limit` scheduled messages of a sequence for one sender (skipping rows another sender holds). */
export function claimMessages(
  q: Queryable,
  workspaceId: string,
  fields: { sequenceId: string; limit: number; token: string; now: Date },
): Promise<MessageRow[]> {
  const sql = query(q);
  return sql<MessageRow[]>`
    update sequence_messages set status = 'claimed', claim_token = ${fields.token}, claimed_at = ${fields.now}, attempts = attempts + 1, updated_at = ${fields.now}
    where id in (
      select id from sequence_messages
      where workspace_id = ${workspaceId} and sequence_id = ${fields.sequenceId} and status = 'scheduled' and scheduled_at <= ${fields.now}
      order by scheduled_at, id limit ${fields.limit} for update skip locked)
    returning ${columns(q)}`;
}

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
  fields: { to: string; subject: string; messageIdHeader: string; now: Date },
): Promise<boolean> {
  const rows = await query(q)`
    update sequence_messages set status = 'sending', to_email = ${fields.to}, subject = ${fields.subject}, message_id_header = ${fields.messageIdHeader},
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
  fields: { providerMessageId: string; now: Date },
): Promise<MessageRow | undefined> {
  const [row] = await query(q)<MessageRow[]>`
    update sequence_messages set status = 'sent', provider_message_id = ${fields.providerMessageId}, sent_at = ${fields.now},
      error_code = null, error_message = null, updated_at = ${fields.now}
    where workspace_id = ${workspaceId} and id = ${id} and status in ('sending', 'uncertain') and claim_token = ${token}
    returning ${columns(q)}`;
  return row;
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

/** Claims whose sender went silent past `before` never reached the provider: they go back to scheduled. */
export async function releaseStaleClaimsAcrossWorkspaces(q: Queryable, before: Date, now: Date): Promise<number> {
  const rows = await query(q)`
    update sequence_messages set status = 'scheduled', claim_token = null, claimed_at = null, attempts = greatest(attempts - 1, 0), updated_at = ${now}
    where status = 'claimed' and claimed_at < ${before} returning id`;
  return rows.length;
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
export function completeFinishedSequences(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  now: Date,
): Promise<Array<{ id: string }>> {
  return query(q)<Array<{ id: string }>>`
    update sequences s set status = 'completed', updated_at = ${now}
    where s.workspace_id = ${workspaceId} and s.id = ${sequenceId} and s.status = 'active'
      and not exists (select 1 from sequence_enrollments e where e.sequence_id = s.id and e.status = 'active')
      and not exists (select 1 from sequence_messages m where m.sequence_id = s.id and m.status in ('scheduled', 'claimed', 'sending'))
    returning s.id`;
}

export interface MessageFilter {
  sequenceId?: string;
  leadId?: string;
  statuses: MessageStatus[];
  before?: { at: string; id: string };
  limit: number;
}

export function listMessages(q: Queryable, workspaceId: string, filter: MessageFilter): Promise<MessageRow[]> {
  const sql = query(q);
  return sql<MessageRow[]>`
    select ${columns(q)} from sequence_messages
    where workspace_id = ${workspaceId}
      ${filter.sequenceId ? sql`and sequence_id = ${filter.sequenceId}` : sql``}
      ${filter.leadId ? sql`and lead_id = ${filter.leadId}` : sql``}
      ${filter.statuses.length ? sql`and status = any(${sql.array(filter.statuses)}::text[])` : sql``}
      ${filter.before ? sql`and (created_at, id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** Erases the personal data a deleted lead left on its messages (the rows stay: they count against limits). */
export async function eraseLeadFromMessages(
  q: Queryable,
  workspaceId: string,
  leadId: string,
  now: Date,
): Promise<void> {
  await query(q)`
    update sequence_messages set to_email = null, subject = null, updated_at = ${now},
      status = case when status in ('scheduled', 'claimed') then 'cancelled' else status end,
      error_code = case when status in ('scheduled', 'claimed') then 'lead_deleted' else error_code end
    where workspace_id = ${workspaceId} and lead_id = ${leadId}`;
}
