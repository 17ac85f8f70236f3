// An RFC 5322 message as Gmail's users.messages.send takes it (base64url `raw`), composed by nodemailer's
// MailComposer: UTF-8 headers encoded, text and HTML as multipart/alternative, the Message-ID as given.
import { loadOnce } from '../../../load-once.ts';

/** nodemailer's MailComposer, loaded at the first message composed (src/load-once.ts). */
export const mailComposer = loadOnce(async () => (await import('nodemailer/lib/mail-composer/index.js')).default);

export interface RawMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
  /** A reply's In-Reply-To and References (RFC 5322 §3.6.4): the Message-IDs it answers, oldest first. */
  inReplyTo?: string;
  references?: string[];
  /** Extra headers; a `{prepared: true, value}` one is written as given (not folded or encoded). */
  headers?: Record<string, string | { prepared: true; value: string }>;
}

export async function composeGmailRaw(message: RawMessage): Promise<string> {
  const MailComposer = await mailComposer();
  const bytes = await new MailComposer(message).compile().build();
  return Buffer.from(bytes).toString('base64url');
}
