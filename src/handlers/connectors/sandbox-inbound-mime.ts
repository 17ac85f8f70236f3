// The inbound messages simulate_sandbox_inbound puts in a sandbox thread, built as real mail would arrive:
// a lead's reply, an out-of-office auto-reply (RFC 3834 Auto-Submitted, X-Autoreply), or the receiving
// server's bounce, a delivery status notification (RFC 3464: multipart/report with a message/delivery-status
// part and the original's headers). nodemailer writes the headers, so no text given here can add one.
import { loadOnce } from '../../load-once.ts';
import { mailComposer } from './google/mime.ts';

const mimeNode = loadOnce(async () => (await import('nodemailer/lib/mime-node/index.js')).default);

export type InboundKind = 'reply' | 'auto_reply' | 'bounce';

/** The sandbox's stand-in for a receiving mail server. */
export const SANDBOX_MX = 'mx.sandbox.invalid';
export const MAILER_DAEMON = `mailer-daemon@${SANDBOX_MX}`;

export interface OriginalMessage {
  /** Our account that sent it, which receives the answer. */
  account: string;
  /** The lead it went to. */
  lead: string;
  subject: string;
  messageId: string | null;
  /** The original's header block, for the bounce's text/rfc822-headers part. */
  headerBlock: string;
}

export interface InboundMessage {
  raw: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

const DEFAULT_TEXT: Record<InboundKind, string> = {
  reply: 'Thanks for getting in touch. This sounds interesting: could we talk next week?',
  auto_reply:
    'I am out of the office with limited access to email and will answer when I am back. For anything urgent, please contact the office.',
  bounce: "Your message wasn't delivered because the address couldn't be found, or is unable to receive mail.",
};

// A header value from stored mail may hold anything a client wrote; it stays on one line here.
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

const reSubject = (subject: string) => (/^\s*re\s*:/i.test(subject) ? subject : `Re: ${subject}`);

export async function composeInbound(
  kind: InboundKind,
  original: OriginalMessage,
  options: { text?: string; messageId: string; date: Date },
): Promise<InboundMessage> {
  const text = options.text ?? DEFAULT_TEXT[kind];
  const subject = oneLine(original.subject);
  original = { ...original, lead: oneLine(original.lead), account: oneLine(original.account) };
  const thread = original.messageId ? { inReplyTo: original.messageId, references: original.messageId } : {};
  if (kind === 'bounce') return composeBounce(original, subject, text, options);
  const out = {
    from: original.lead,
    to: original.account,
    subject: kind === 'reply' ? reSubject(subject) : `Automatic reply: ${subject}`,
    text,
  };
  const headers = kind === 'auto_reply' ? { 'Auto-Submitted': 'auto-replied', 'X-Autoreply': 'yes' } : undefined;
  const MailComposer = await mailComposer();
  const bytes = await new MailComposer({ ...out, ...thread, headers, messageId: options.messageId, date: options.date })
    .compile()
    .build();
  return { ...out, raw: bytes.toString('utf8') };
}

async function composeBounce(
  original: OriginalMessage,
  subject: string,
  text: string,
  options: { messageId: string; date: Date },
): Promise<InboundMessage> {
  const out = {
    from: `Mail Delivery Subsystem <${MAILER_DAEMON}>`,
    to: original.account,
    subject: 'Delivery Status Notification (Failure)',
    text: `${text}\n\nThe message to ${original.lead} ("${subject}") could not be delivered.`,
  };
  const MimeNode = await mimeNode();
  const root = new MimeNode('multipart/report; report-type=delivery-status');
  root.setHeader({
    From: out.from,
    To: out.to,
    Subject: out.subject,
    Date: options.date.toUTCString(),
    'Message-ID': options.messageId,
    'X-Failed-Recipients': original.lead,
    'Auto-Submitted': 'auto-replied',
    ...(original.messageId ? { 'In-Reply-To': original.messageId, References: original.messageId } : {}),
  });
  root.createChild('text/plain; charset=utf-8').setContent(out.text);
  const status = [
    `Reporting-MTA: dns; ${SANDBOX_MX}`,
    `Arrival-Date: ${options.date.toUTCString()}`,
    '',
    `Final-Recipient: rfc822; ${original.lead}`,
    'Action: failed',
    'Status: 5.1.1',
    `Remote-MTA: dns; ${SANDBOX_MX}`,
    'Diagnostic-Code: smtp; 550 5.1.1 The email account that you tried to reach does not exist.',
    '',
  ].join('\r\n');
  root.createChild('message/delivery-status').setHeader('Content-Transfer-Encoding', '7bit').setContent(status);
  root
    .createChild('text/rfc822-headers; charset=utf-8')
    .setContent(original.headerBlock.slice(0, 16_000).replace(/\r?\n/g, '\r\n'));
  return { ...out, raw: (await root.build()).toString('utf8') };
}
