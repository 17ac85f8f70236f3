// Which thread a reply to a lead goes into, and the headers that keep it there: the lead's latest message
// to us (else our latest to them) names the mailbox and the thread; In-Reply-To is that message's
// Message-ID and References the thread's Message-IDs oldest first, so every mail client threads it.
import type { ConversationReplyRow } from './conversation-replies-data.ts';
import type { InboundRow, OutboundRow } from './replies-data.ts';

export interface ReplyThread {
  connectorId: string;
  threadId: string | null;
  inReplyTo: string | null;
  references: string | null;
  subject: string;
}

/** RFC 5322 suggests keeping the first and the latest ids when the chain grows long. */
const MAX_REFERENCES = 20;

/** "Re: " once, whatever prefixes the thread's subject already carries. */
export function replySubject(subject: string | null): string {
  const base = (subject ?? '').replace(/^(\s*(re|aw|sv|fwd?)\s*:\s*)+/i, '').trim();
  return base ? `Re: ${base}` : 'Re: our conversation';
}

interface Anchor {
  connectorId: string;
  /** The sequence message the lead answered, whatever thread id it has stored. */
  answered: string | null;
  threadId: string | null;
  messageId: string | null;
  subject: string | null;
}

function anchorOf(inbound: InboundRow[], sent: OutboundRow[]): Anchor | undefined {
  // A bounce comes from the lead's mail server, not from the lead: nothing to answer there.
  const theirs = inbound.filter((m) => m.classification !== 'bounce').at(-1);
  if (theirs) {
    const ours = sent.find((m) => m.id === theirs.sequence_message_id);
    return {
      connectorId: theirs.connector_id,
      answered: theirs.sequence_message_id,
      threadId: theirs.thread_id ?? ours?.thread_id ?? null,
      messageId: theirs.message_id_header,
      subject: theirs.subject ?? ours?.subject ?? null,
    };
  }
  const ours = sent.at(-1);
  if (!ours) return undefined;
  return {
    connectorId: ours.connector_id,
    answered: ours.id,
    threadId: ours.thread_id,
    messageId: ours.message_id_header,
    subject: ours.subject,
  };
}

/** The thread to answer, or undefined when we never wrote to the lead and they never wrote to us. */
export function replyThread(
  inbound: InboundRow[],
  sent: OutboundRow[],
  replies: ConversationReplyRow[],
): ReplyThread | undefined {
  const anchor = anchorOf(inbound, sent);
  if (!anchor) return undefined;
  const inThread = (m: { connector_id: string; thread_id: string | null }) =>
    m.connector_id === anchor.connectorId && (anchor.threadId === null || m.thread_id === anchor.threadId);
  // A message sent before threads were stored has none: Gmail names a new thread after its first message.
  const sentInThread = (m: OutboundRow) =>
    m.id === anchor.answered ||
    inThread({ connector_id: m.connector_id, thread_id: m.thread_id ?? m.provider_message_id });
  const dated = [
    ...sent.filter(sentInThread).map((m) => ({ at: m.at, id: m.message_id_header })),
    ...inbound.filter(inThread).map((m) => ({ at: m.received_at, id: m.message_id_header })),
    ...replies
      .filter((r) => r.status === 'sent' && inThread(r))
      .map((r) => ({ at: r.sent_at ?? r.created_at, id: r.message_id_header })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const ids = [...new Set(dated.map((d) => d.id).filter((id): id is string => !!id))];
  if (anchor.messageId && !ids.includes(anchor.messageId)) ids.push(anchor.messageId);
  const chain = ids.length > MAX_REFERENCES ? [ids[0], ...ids.slice(-(MAX_REFERENCES - 1))] : ids;
  return {
    connectorId: anchor.connectorId,
    threadId: anchor.threadId,
    inReplyTo: anchor.messageId,
    references: chain.length ? chain.join(' ') : null,
    subject: replySubject(anchor.subject),
  };
}
