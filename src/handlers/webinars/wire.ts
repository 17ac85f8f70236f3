// Webinars and registrants as the contract shows them, and the public URLs the service hands out.
import type { MailCounts, RegistrantMailRow } from './webinar-mail-data.ts';
import type { RegistrantRow } from './webinar-registrants-data.ts';
import type { WebinarCounts, WebinarRow } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import { signJoin } from './tokens.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const base = (deps: Deps) => deps.config.publicBaseUrl.replace(/\/$/, '');

export const registrationUrl = (deps: Deps, w: Pick<WebinarRow, 'public_id'>) =>
  `${base(deps)}/webinars/${w.public_id}/register`;

export const joinUrl = (deps: Deps, r: Pick<RegistrantRow, 'workspace_id' | 'id'>) =>
  `${base(deps)}/webinars/join/${signJoin(deps.auth.apiKeyPepper, { workspaceId: r.workspace_id, registrantId: r.id })}`;

export interface WebinarView {
  row: WebinarRow;
  counts: WebinarCounts;
  mail: MailCounts;
  registrationUrl: string;
}

/** "queued" is what an agent reads; the rows say `scheduled` (due at a time, or waiting for a retry). */
const mailState = (s: RegistrantMailRow['status']) => (s === 'scheduled' ? ('queued' as const) : s);

export const webinarBody = ({ row: w, counts, mail, registrationUrl: url }: WebinarView) => ({
  id: w.id,
  status: w.status,
  title: w.title,
  description: w.description,
  start_at: w.start_at.toISOString(),
  duration_minutes: w.duration_minutes,
  timezone: w.timezone,
  capacity: w.capacity,
  meeting_url: w.meeting_url,
  sender_connector_id: w.sender_connector_id,
  registration_url: url,
  invitation_sequence: w.ical_sequence,
  registered: counts.registered,
  joined: counts.joined,
  mail: {
    queued: mail.scheduled,
    sending: mail.sending,
    sent: mail.sent,
    failed: mail.failed,
    skipped: mail.skipped,
    uncertain: mail.uncertain,
  },
  created_at: w.created_at.toISOString(),
  updated_at: w.updated_at.toISOString(),
  cancelled_at: iso(w.cancelled_at),
});

/** What events carry: the webinar without its description. */
export const webinarEventData = (w: WebinarRow) => ({
  id: w.id,
  status: w.status,
  title: w.title,
  start_at: w.start_at.toISOString(),
  duration_minutes: w.duration_minutes,
  timezone: w.timezone,
  invitation_sequence: w.ical_sequence,
});

const mailBody = (m: RegistrantMailRow) => ({
  kind: m.kind,
  invitation_sequence: m.kind.startsWith('reminder') ? null : m.ical_sequence,
  status: mailState(m.status),
  due_at: m.due_at.toISOString(),
  sent_at: iso(m.sent_at),
  attempts: m.attempts,
  // Why it failed, was skipped, is uncertain or waits for a retry; the provider's words in `detail`.
  reason: m.status === 'sent' ? null : m.error_code,
  detail: m.status === 'sent' ? null : m.error_message,
});

/** A registrant with their mail (oldest due first); `mail` holds only this registrant's rows. */
export const registrantBody = (r: RegistrantRow, mail: RegistrantMailRow[]) => ({
  id: r.id,
  webinar_id: r.webinar_id,
  lead_id: r.lead_id,
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
  source: r.source,
  status: r.status,
  registered_at: r.registered_at.toISOString(),
  removed_at: iso(r.removed_at),
  joined_at: iso(r.joined_at),
  mail: mail.filter((m) => m.registrant_id === r.id).map(mailBody),
});

export const registrantEventData = (r: RegistrantRow) => ({
  id: r.id,
  webinar_id: r.webinar_id,
  lead_id: r.lead_id,
  status: r.status,
  source: r.source,
  joined_at: iso(r.joined_at),
});
