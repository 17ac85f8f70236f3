// Sending a reply into a lead's thread, never twice: the row is committed as `sending` before the provider is
// called (by the caller, in the same statement that creates or approves it), and the outcome is recorded
// after. A process that dies in between leaves `sending`; the sweep (reply-sweep.ts) later calls it
// `uncertain`, because the provider may have delivered it, and nothing sends it again.
import type { Deps } from '../../deps.ts';
import { composeGmailRaw } from '../connectors/google/mime.ts';
import { findConnector } from '../connectors/connectors-data.ts';
import { sendMail } from '../connectors/providers/providers.ts';
import type { SendOutcome } from '../connectors/providers/mailbox.ts';
import type { EventActor } from '../events/events-data.ts';
import { recordEvent } from '../events/record-event.ts';
import {
  findConversationReply,
  moveConversationReply,
  type ConversationReplyRow,
  type ReplyMove,
} from './conversation-replies-data.ts';
import { replyEventData } from './reply-wire.ts';

/** A globally unique Message-ID on the sender's domain. */
function replyMessageId(row: ConversationReplyRow, from: string): string {
  const domain = from.includes('@') ? from.slice(from.lastIndexOf('@') + 1) : 'service-mcp.local';
  return `<${row.id}@${domain}>`;
}

function composeReply(row: ConversationReplyRow, from: string, messageId: string, date: Date): Promise<string> {
  const headers: Record<string, string> = {};
  if (row.in_reply_to) headers['In-Reply-To'] = row.in_reply_to;
  if (row.references_header) headers.References = row.references_header;
  // No HTML part: a person's reply in a conversation is plain text, as they wrote it.
  return composeGmailRaw({
    from,
    to: row.to_email ?? '',
    subject: row.subject,
    text: row.body,
    html: '',
    messageId,
    date,
    headers,
  });
}

/** What the row becomes for each outcome of the one send. */
function settleMove(outcome: SendOutcome, messageIdHeader: string, now: Date): ReplyMove {
  switch (outcome.kind) {
    case 'sent':
      return {
        from: 'sending',
        to: 'sent',
        now,
        sent: { providerMessageId: outcome.providerMessageId, messageIdHeader },
      };
    case 'uncertain':
      return { from: 'sending', to: 'uncertain', now, error: { code: outcome.code, message: outcome.reason } };
    case 'bounced':
      return { from: 'sending', to: 'failed', now, error: { code: 'bounced', message: outcome.reason } };
    case 'retryable':
    case 'refused':
      // A reply is written for this moment: a person decides whether to write it again, nothing retries it.
      return { from: 'sending', to: 'failed', now, error: { code: outcome.code, message: outcome.reason } };
  }
}

/** Sends `row` (committed as `sending`) and records how it ended; answers the row as recorded. */
export async function deliverReply(
  deps: Deps,
  actor: EventActor,
  row: ConversationReplyRow,
): Promise<ConversationReplyRow> {
  const connector = await findConnector(deps.db.sql, row.workspace_id, row.connector_id);
  const messageId = replyMessageId(row, connector?.account_email ?? '');
  let outcome: SendOutcome;
  if (!connector || connector.status !== 'connected' || !connector.account_email) {
    outcome = {
      kind: 'refused',
      code: 'connector_not_connected',
      reason: `Connector ${row.connector_id} is not connected.`,
    };
  } else {
    const raw = await composeReply(row, connector.account_email, messageId, deps.clock.now());
    outcome = await sendMail(deps, connector, raw, row.thread_id ? { threadId: row.thread_id } : undefined);
  }
  const move = settleMove(outcome, messageId, deps.clock.now());
  const settled = await deps.db.sql.begin(async (tx) => {
    const moved = await moveConversationReply(tx, row.workspace_id, row.id, move);
    // The sweep already called it uncertain (this send took longer than its grace): that stands.
    if (!moved) return undefined;
    await recordEvent(deps, tx, row.workspace_id, actor, `conversation_reply.${moved.status}`, replyEventData(moved));
    return moved;
  });
  if (row.lead_id) deps.resourceWatch.changed(row.lead_id);
  return settled ?? (await findConversationReply(deps.db.sql, row.workspace_id, row.id)) ?? row;
}
