// Webinars over REST against a ready workspace (Gmail connected in sandbox mode or against the fake Google):
// scheduling, running the mail sender as its jobs would, and reading what the sandbox mailbox received,
// parsed (mailparser) down to its calendar invitation's properties.
import { simpleParser } from 'mailparser';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { sendDueWebinarMail } from '../../../src/handlers/webinars/send-mail.ts';
import { json, type Workspace } from '../sequences/sequence-fixtures.ts';

export const START = '2026-11-26T15:00:00.000Z';

export function webinarBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Pipeline clinic',
    description: 'Live Q&A on outbound.',
    start_at: START,
    duration_minutes: 45,
    timezone: 'Europe/Paris',
    meeting_url: 'https://meet.example/abc-defg-hij',
    ...overrides,
  };
}

export async function scheduleWebinar(
  t: TestApp,
  ws: Workspace,
  overrides: Record<string, unknown> = {},
): Promise<any> {
  return json(
    t.request('/api/v1/webinars', { method: 'POST', token: ws.owner.token, json: webinarBody(overrides) }),
    201,
  );
}

export async function addWebinarRegistrants(
  t: TestApp,
  ws: Workspace,
  webinarId: string,
  registrants: unknown[],
): Promise<any> {
  return json(
    t.request(`/api/v1/webinars/${webinarId}/registrants`, {
      method: 'POST',
      token: ws.owner.token,
      json: { registrants },
    }),
  );
}

/** Runs the sender as its jobs would; returns how many mails it settled. */
export const sendMail = (t: TestApp) => sendDueWebinarMail(t.deps);

/**
 * An iCalendar object's content lines, unfolded (RFC 5545 §3.1), keyed by property name (parameters dropped),
 * outside the VTIMEZONE (whose DTSTARTs are its rules', not the event's).
 */
export function icsProps(ics: string): Record<string, string> {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const props: Record<string, string> = {};
  let inZone = false;
  for (const line of lines) {
    if (line === 'BEGIN:VTIMEZONE' || line === 'END:VTIMEZONE') inZone = line.startsWith('BEGIN');
    const m = /^([A-Z-]+)(;[^:]*)?:(.*)$/.exec(line);
    if (m && !inZone && !(m[1] in props)) props[m[1]] = m[3];
  }
  return props;
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** The text/calendar alternative, and its method parameter. */
  calendar: string | null;
  calendarMethod: string | null;
  /** The invite.ics attachment. */
  attachment: string | null;
}

/** What the sandbox mailbox received for this workspace, oldest first. */
export async function sandboxMail(t: TestApp, workspaceId: string): Promise<ReceivedMail[]> {
  // Mail sent at one clock reading comes in no particular order: by recipient within it.
  const rows = await t.db.sql<
    Array<{ raw: string }>
  >`select raw from sandbox_messages where workspace_id = ${workspaceId} order by created_at, to_header`;
  const out: ReceivedMail[] = [];
  for (const { raw } of rows) {
    const parsed = await simpleParser(raw);
    const ics = parsed.attachments.find((a) => a.filename === 'invite.ics');
    const alt = parsed.attachments.find((a) => a.contentType === 'text/calendar');
    out.push({
      to: (parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '') ?? '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      calendar: alt ? alt.content.toString('utf8') : null,
      calendarMethod: alt
        ? ((alt.headers.get('content-type') as { params: Record<string, string> }).params.method ?? null)
        : null,
      attachment: ics ? ics.content.toString('utf8') : null,
    });
  }
  return out;
}

export const joinLinkIn = (text: string): string => {
  const m = /Join here: (\S+)/.exec(text);
  expect(m, text).not.toBeNull();
  return (m as RegExpExecArray)[1];
};
