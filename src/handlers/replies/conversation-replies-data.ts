// The conversation_replies table (migration 0018): replies we write into a lead's thread. A row moves
// pending_approval -> sending (committed before the provider is called) -> sent / failed, or
// pending_approval -> rejected; a `sending` row left by a process that died becomes `uncertain` in the sweep
// and is never sent again. Every move is conditional on the row's current status, so two deciders (or a
// decider and the sweep) cannot both win. The sweep is the one cross-workspace function and says so.
import { query, type Queryable } from '../../db/queryable.ts';

export type ConversationReplyStatus = 'pending_approval' | 'rejected' | 'sending' | 'sent' | 'failed' | 'uncertain';

export interface ConversationReplyRow {
  id: string;
  workspace_id: string;
  lead_id: string | null;
  connector_id: string;
  mode: 'live' | 'sandbox';
  thread_id: string | null;
  in_reply_to: string | null;
  references_header: string | null;
  to_email: string | null;
  subject: string;
  body: string;
  status: ConversationReplyStatus;
  created_by: string | null;
  created_via: string;
  decided_by: string | null;
  decided_at: Date | null;
  decision_note: string | null;
  provider_message_id: string | null;
  message_id_header: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
  sending_at: Date | null;
  sent_at: Date | null;
}

export type NewConversationReply = Pick<
  ConversationReplyRow,
  | 'id'
  | 'lead_id'
  | 'connector_id'
  | 'mode'
  | 'thread_id'
  | 'in_reply_to'
  | 'references_header'
  | 'to_email'
  | 'subject'
  | 'body'
  | 'status'
  | 'created_by'
  | 'created_via'
>;

export async function insertConversationReply(
  q: Queryable,
  workspaceId: string,
  reply: NewConversationReply,
  now: Date,
): Promise<ConversationReplyRow> {
  const [row] = await query(q)<ConversationReplyRow[]>`
    insert into conversation_replies (id, workspace_id, lead_id, connector_id, mode, thread_id, in_reply_to,
      references_header, to_email, subject, body, status, created_by, created_via, created_at, updated_at, sending_at)
    values (${reply.id}, ${workspaceId}, ${reply.lead_id}, ${reply.connector_id}, ${reply.mode}, ${reply.thread_id},
      ${reply.in_reply_to}, ${reply.references_header}, ${reply.to_email}, ${reply.subject}, ${reply.body},
      ${reply.status}, ${reply.created_by}, ${reply.created_via}, ${now}, ${now},
      ${reply.status === 'sending' ? now : null})
    returning *`;
  return row;
}

export async function findConversationReply(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConversationReplyRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConversationReplyRow[]>`
    select * from conversation_replies where id = ${id} and workspace_id = ${workspaceId}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export interface ConversationReplyFilter {
  leadId?: string;
  statuses: ConversationReplyStatus[];
  before?: { at: string; id: string };
  limit: number;
}

export function listConversationReplyRows(
  q: Queryable,
  workspaceId: string,
  filter: ConversationReplyFilter,
): Promise<ConversationReplyRow[]> {
  const sql = query(q);
  return sql<ConversationReplyRow[]>`
    select * from conversation_replies
    where workspace_id = ${workspaceId}
      ${filter.leadId ? sql`and lead_id = ${filter.leadId}` : sql``}
      ${filter.statuses.length ? sql`and status = any(${sql.array(filter.statuses)}::text[])` : sql``}
      ${filter.before ? sql`and (created_at, id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** A lead's replies, oldest first (the conversation). */
export function leadConversationReplies(
  q: Queryable,
  workspaceId: string,
  leadId: string,
): Promise<ConversationReplyRow[]> {
  return query(q)<ConversationReplyRow[]>`
    select * from conversation_replies where workspace_id = ${workspaceId} and lead_id = ${leadId}
    order by created_at, id`;
}

export interface ReplyMove {
  from: ConversationReplyStatus;
  to: ConversationReplyStatus;
  now: Date;
  decision?: { by: string; note: string | null };
  sent?: { providerMessageId: string; messageIdHeader: string };
  error?: { code: string; message: string };
}

/** Moves the reply when it is still in `from`; undefined when it was not (someone else moved it first). */
export async function moveConversationReply(
  q: Queryable,
  workspaceId: string,
  id: string,
  move: ReplyMove,
): Promise<ConversationReplyRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConversationReplyRow[]>`
    update conversation_replies set status = ${move.to}, updated_at = ${move.now}
      ${move.to === 'sending' ? sql`, sending_at = ${move.now}` : sql``}
      ${move.decision ? sql`, decided_by = ${move.decision.by}, decided_at = ${move.now}, decision_note = ${move.decision.note}` : sql``}
      ${move.sent ? sql`, sent_at = ${move.now}, provider_message_id = ${move.sent.providerMessageId}, message_id_header = ${move.sent.messageIdHeader}` : sql``}
      ${move.error ? sql`, error_code = ${move.error.code}, error_message = ${move.error.message}` : sql``}
    where id = ${id} and workspace_id = ${workspaceId} and status = ${move.from}
    returning *`;
  return row;
}

/** Every workspace's replies left `sending` since before `staleBefore` become `uncertain` (never resent). */
export function markStaleSendingUncertainAcrossWorkspaces(
  q: Queryable,
  staleBefore: Date,
  now: Date,
): Promise<ConversationReplyRow[]> {
  return query(q)<ConversationReplyRow[]>`
    update conversation_replies set status = 'uncertain', updated_at = ${now}, error_code = 'send_interrupted',
      error_message = 'The sender stopped after the message was handed to the provider; it may have been delivered.'
    where status = 'sending' and sending_at < ${staleBefore}
    returning *`;
}
