// The mail a registrant gets, as Gmail's `raw` MIME composed by nodemailer's MailComposer. Invitations,
// updates and cancellations carry the iCalendar object twice, as calendar clients expect: as the
// `text/calendar; method=…` alternative, which Gmail and Outlook turn into the invitation card, and as an
// `invite.ics` attachment for clients that only read attachments (nodemailer's `icalEvent` writes both).
import type { MailKind } from './webinar-mail-data.ts';
import { escapeHtml } from '../../http/page.ts';
import { mailComposer } from '../connectors/google/mime.ts';
import { invitationIcs, type Invitation } from './calendar.ts';

export interface WebinarMail {
  kind: MailKind;
  from: string;
  to: string;
  firstName: string | null;
  messageId: string;
  date: Date;
  invitation: Omit<Invitation, 'method' | 'stamp'>;
}

function when(inv: WebinarMail['invitation']): string {
  const fmt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: inv.timezone });
  return `${fmt.format(inv.startAt)} (${inv.timezone}), ${inv.durationMinutes} minutes`;
}

/** Subject and plain-text lines of each kind of mail. */
function wording(m: WebinarMail): { subject: string; lines: string[] } {
  const inv = m.invitation;
  const hello = `Hello${m.firstName ? ` ${m.firstName}` : ''},`;
  const join = `Join here: ${inv.joinUrl}`;
  switch (m.kind) {
    case 'confirmation':
      return {
        subject: `You're registered: ${inv.title}`,
        lines: [
          hello,
          `You are registered for "${inv.title}" on ${when(inv)}.`,
          join,
          'The calendar invitation is attached.',
        ],
      };
    case 'update':
      return {
        subject: `Updated: ${inv.title}`,
        lines: [
          hello,
          `The details of "${inv.title}" have changed. It takes place on ${when(inv)}.`,
          ...(inv.description ? [inv.description] : []),
          join,
          'The attached invitation updates the event in your calendar.',
        ],
      };
    case 'cancellation':
      return {
        subject: `Cancelled: ${inv.title}`,
        lines: [
          hello,
          `"${inv.title}", planned for ${when(inv)}, is cancelled.`,
          'The attached cancellation removes it from your calendar.',
        ],
      };
    case 'reminder_24h':
      return {
        subject: `Tomorrow: ${inv.title}`,
        lines: [hello, `A reminder: "${inv.title}" starts in 24 hours, on ${when(inv)}.`, join],
      };
    case 'reminder_1h':
      return {
        subject: `Starting in 1 hour: ${inv.title}`,
        lines: [hello, `"${inv.title}" starts in one hour, on ${when(inv)}.`, join],
      };
  }
}

export async function composeWebinarMail(m: WebinarMail): Promise<string> {
  const { subject, lines } = wording(m);
  const method =
    m.kind === 'cancellation' ? 'CANCEL' : m.kind === 'confirmation' || m.kind === 'update' ? 'REQUEST' : null;
  const ics = method && invitationIcs({ ...m.invitation, method, stamp: m.date });
  const MailComposer = await mailComposer();
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
    messageId: m.messageId,
    date: m.date,
    // nodemailer writes it both as the text/calendar alternative and, named, as the invite.ics attachment.
    ...(method && ics && { icalEvent: { method, filename: 'invite.ics', content: ics } }),
  });
  return Buffer.from(await composer.compile().build()).toString('base64url');
}
