// The writes of the replies area: inbound_messages (migration 0018; recorded once per Gmail message by the
// unique (connector_id, provider_message_id)), and what a recorded message changes on our sequence messages,
// enrollments and leads. The reply inbox's reads are in replies-data.ts. Tenant rows: every function takes
// the workspace id right after the queryable.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import { columns, type MessageRow } from '../sequences/sequence-messages-data.ts';
import type { Classification } from './classify.ts';

export interface NewInbound {
  connectorId: string;
  providerMessageId: string;
  threadId: string | null;
  classification: Classification | 'ignored';
  bounceType: 'permanent' | 'transient' | null;
  bounceStatus: string | null;
  messageIdHeader: string | null;
  inReplyTo: string | null;
  fromEmail: string | null;
  subject: string | null;
  textBody: string | null;
  match: MessageRow | null;
  receivedAt: Date;
  now: Date;
}

/** Records one inbound message; its id, or undefined when it was already recorded (by this run or another). */
export async function insertInbound(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  m: NewInbound,
): Promise<string | undefined> {
  const [row] = await query(q)<{ id: string }[]>`
    insert into inbound_messages (id, workspace_id, connector_id, provider_message_id, thread_id, classification, bounce_type,
      bounce_status, message_id_header, in_reply_to, from_email, subject, text_body, sequence_message_id, sequence_id,
      enrollment_id, lead_id, received_at, created_at)
    values (${ids.make('inb')}, ${workspaceId}, ${m.connectorId}, ${m.providerMessageId}, ${m.threadId}, ${m.classification},
      ${m.bounceType}, ${m.bounceStatus}, ${m.messageIdHeader}, ${m.inReplyTo}, ${m.fromEmail}, ${m.subject}, ${m.textBody},
      ${m.match?.id ?? null}, ${m.match?.sequence_id ?? null}, ${m.match?.enrollment_id ?? null}, ${m.match?.lead_id ?? null},
      ${m.receivedAt}, ${m.now})
    on conflict (connector_id, provider_message_id) do nothing
    returning id`;
  return row?.id;
}

export async function setInboundEffect(q: Queryable, workspaceId: string, id: string, effect: string): Promise<void> {
  await query(q)`update inbound_messages set effect = ${effect} where workspace_id = ${workspaceId} and id = ${id}`;
}

/** Which of these Gmail message ids this mailbox has already recorded (they are not fetched again). */
export async function recordedMessageIds(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  providerIds: string[],
): Promise<Set<string>> {
  if (providerIds.length === 0) return new Set();
  const sql = query(q);
  const rows = await sql<{ provider_message_id: string }[]>`
    select provider_message_id from inbound_messages
    where workspace_id = ${workspaceId} and connector_id = ${connectorId}
      and provider_message_id = any(${sql.array(providerIds)}::text[])`;
  return new Set(rows.map((r) => r.provider_message_id));
}

/** Our sent message an inbound one answers: same Gmail thread first, else one its In-Reply-To/References name. */
export async function findAnsweredMessage(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  threadId: string | null,
  referenced: string[],
): Promise<MessageRow | undefined> {
  const sql = query(q);
  const [row] = await sql<MessageRow[]>`
    select ${columns(q)} from sequence_messages
    where workspace_id = ${workspaceId} and connector_id = ${connectorId} and status in ('sent', 'uncertain')
      and (${threadId ? sql`thread_id = ${threadId}` : sql`false`}
           or message_id_header = any(${sql.array(referenced)}::text[]))
    order by ${threadId ? sql`(thread_id is not distinct from ${threadId}) desc,` : sql``} step desc, sent_at desc nulls last
    limit 1`;
  return row;
}

/** The enrollment's last sent message that has a thread: where the pre-send check looks for answers. */
export async function lastSentInThread(
  q: Queryable,
  workspaceId: string,
  enrollmentId: string,
): Promise<{ thread_id: string; sent_at: Date } | undefined> {
  const [row] = await query(q)<{ thread_id: string; sent_at: Date }[]>`
    select thread_id, sent_at from sequence_messages
    where workspace_id = ${workspaceId} and enrollment_id = ${enrollmentId} and status = 'sent'
      and thread_id is not null and sent_at is not null
    order by sent_at desc limit 1`;
  return row;
}

export interface ReplySettings {
  stop_on_reply: boolean;
  stop_on_auto_reply: boolean;
  auto_reply_pause_days: number;
  stop_for_company: boolean;
}

export async function findReplySettings(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
): Promise<ReplySettings | undefined> {
  const [row] = await query(q)<ReplySettings[]>`
    select stop_on_reply, stop_on_auto_reply, auto_reply_pause_days, stop_for_company from sequences
    where workspace_id = ${workspaceId} and id = ${sequenceId}`;
  return row;
}

/** What came back to one of our messages; a later answer does not overwrite a bounce. */
export async function setReplyState(
  q: Queryable,
  workspaceId: string,
  messageId: string,
  state: NonNullable<MessageRow['reply_state']>,
  at: Date,
): Promise<void> {
  await query(q)`
    update sequence_messages set reply_state = ${state}, replied_at = coalesce(replied_at, ${at})
    where workspace_id = ${workspaceId} and id = ${messageId} and reply_state is distinct from 'bounced'`;
}

export async function setLastReplied(q: Queryable, workspaceId: string, leadId: string, at: Date): Promise<void> {
  await query(q)`
    update leads set last_replied_at = greatest(coalesce(last_replied_at, ${at}), ${at})
    where workspace_id = ${workspaceId} and id = ${leadId}`;
}

/** Active enrollments of the sequence whose lead's address is at `domain` or one of its subdomains. */
export function companyEnrollments(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  domain: string,
): Promise<Array<{ id: string; email: string }>> {
  const sql = query(q);
  const escaped = domain.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<Array<{ id: string; email: string }>>`
    select e.id, l.email from sequence_enrollments e join leads l on l.id = e.lead_id
    where e.workspace_id = ${workspaceId} and e.sequence_id = ${sequenceId} and e.status = 'active'
      and (lower(l.email) like ${`%@${escaped}`} or lower(l.email) like ${`%.${escaped}`})`;
}

/** Pushes an active enrollment's next step (and its message already scheduled) `days` later; the new due time. */
export async function postponeEnrollment(
  q: Queryable,
  workspaceId: string,
  enrollmentId: string,
  days: number,
  now: Date,
): Promise<Date | null> {
  const sql = query(q);
  const shift = `${days} days`;
  const [row] = await sql<{ next_due_at: Date | null }[]>`
    update sequence_enrollments set next_due_at = next_due_at + ${shift}::interval, updated_at = ${now}
    where workspace_id = ${workspaceId} and id = ${enrollmentId} and status = 'active'
    returning next_due_at`;
  if (!row) return null;
  const [message] = await sql<{ scheduled_at: Date }[]>`
    update sequence_messages set scheduled_at = greatest(scheduled_at, ${now}) + ${shift}::interval, updated_at = ${now}
    where workspace_id = ${workspaceId} and enrollment_id = ${enrollmentId} and status = 'scheduled'
    returning scheduled_at`;
  return message?.scheduled_at ?? row.next_due_at ?? new Date(now.getTime() + days * 86_400_000);
}
