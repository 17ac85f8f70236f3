// One sequence message as RFC 5322 MIME, composed by nodemailer's MailComposer (headers encoded for UTF-8,
// text and HTML as multipart/alternative), with the RFC 8058 one-click unsubscribe headers Gmail's
// bulk-sender rules require. Returned as the base64url `raw` Gmail's users.messages.send takes.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  unsubscribeUrl: string;
  date: Date;
}

export async function composeSequenceMessage(m: OutgoingMessage): Promise<string> {
  const mail = new MailComposer({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId,
    date: m.date,
    headers: {
      // Prepared: kept on one line. Folded, the URL would come back with a space in it after unfolding.
      'List-Unsubscribe': { prepared: true, value: `<${m.unsubscribeUrl}>` },
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }).compile();
  const bytes = await mail.build();
  return Buffer.from(bytes).toString('base64url');
}

/** A globally unique Message-ID on the sender's domain. */
export function messageIdFor(messageRowId: string, from: string, unique: string): string {
  const domain = from.includes('@') ? from.slice(from.lastIndexOf('@') + 1) : 'service-mcp.local';
  return `<${messageRowId}.${unique}@${domain}>`;
}
