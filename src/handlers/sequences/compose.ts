// One sequence message as Gmail's `raw` MIME, with the RFC 8058 one-click unsubscribe headers Gmail's
// bulk-sender rules require.
import { composeGmailRaw } from '../connectors/google/mime.ts';

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  unsubscribeUrl: string;
  date: Date;
  /** In a thread: the Message-ID of the message it follows, and every earlier one of the enrollment in order. */
  inReplyTo?: string;
  references?: string[];
}

export function composeSequenceMessage(m: OutgoingMessage): Promise<string> {
  return composeGmailRaw({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId,
    date: m.date,
    inReplyTo: m.inReplyTo,
    references: m.references,
    headers: {
      // Prepared: kept on one line. Folded, the URL would come back with a space in it after unfolding.
      'List-Unsubscribe': { prepared: true, value: `<${m.unsubscribeUrl}>` },
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}

/** A globally unique Message-ID on the sender's domain. */
export function messageIdFor(messageRowId: string, from: string, unique: string): string {
  const domain = from.includes('@') ? from.slice(from.lastIndexOf('@') + 1) : 'service-mcp.local';
  return `<${messageRowId}.${unique}@${domain}>`;
}
