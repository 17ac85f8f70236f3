// Replies as the API shows them: what came back (Reply), a lead's conversation entries, and the replies we
// write (ConversationReply), with the event data that names a reply without its body.
import { connectorCapabilities } from '../connectors/google/google-endpoints.ts';
import type { ConversationReplyRow } from './conversation-replies-data.ts';
import type { InboundRow } from './replies-data.ts';

/** Where a person reviews a reply waiting for approval (the admin panel's approvals page). */
export const replyApprovalUrl = (publicBaseUrl: string, replyId: string) =>
  `${publicBaseUrl.replace(/\/$/, '')}/admin/approvals?reply=${replyId}`;

/** The lead's words, only while the connector that read them holds the read_reply_text capability. */
export const inboundText = (row: InboundRow): string | null =>
  connectorCapabilities(row).includes('read_reply_text') ? row.text_body : null;

export const replyBody = (row: InboundRow) => ({
  id: row.id,
  classification: row.classification,
  lead_id: row.lead_id,
  subject: row.subject,
  sequence_id: row.sequence_id,
  message_id: row.sequence_message_id,
  bounce_type: row.bounce_type,
  effect: row.effect,
  text: inboundText(row),
  received_at: row.received_at.toISOString(),
});

export const conversationReplyBody = (publicBaseUrl: string) => (row: ConversationReplyRow) => ({
  id: row.id,
  lead_id: row.lead_id,
  mode: row.mode,
  to: row.to_email,
  subject: row.subject,
  body: row.body,
  status: row.status,
  approval_url: row.status === 'pending_approval' ? replyApprovalUrl(publicBaseUrl, row.id) : null,
  message_id: row.message_id_header,
  error_code: row.error_code,
  error_message: row.error_message,
  decision_note: row.decision_note,
  created_at: row.created_at.toISOString(),
  sent_at: row.sent_at?.toISOString() ?? null,
});

export type ConversationReplyBody = ReturnType<ReturnType<typeof conversationReplyBody>>;

/** What an event says about a reply: who, where and how it stands, never its body. */
export const replyEventData = (row: ConversationReplyRow) => ({
  id: row.id,
  lead_id: row.lead_id,
  connector_id: row.connector_id,
  mode: row.mode,
  status: row.status,
  error_code: row.error_code,
});
