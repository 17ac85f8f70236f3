// Sends due webinar mail, from two job kinds: `webinars.send-mail` (kicked by every change that queues
// mail, and every minute as the safety net) and `webinars.remind` (one delayed job per webinar and reminder
// time, started at that time). Both run the same pass. A row is taken (`sending`, committed) before the
// provider call and settled after; one left `sending` by a dead sender becomes `uncertain`, never resent.
// Before sending, the last checks: the registrant still registered, the webinar not cancelled (only its
// cancellation goes then), the invitation not superseded by a newer time, a reminder not too late, the
// address not suppressed.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { findConnector, type ConnectorRow } from '../connectors/connectors-data.ts';
import { emailHash } from '../leads/lead-suppressions-data.ts';
import {
  markStaleSendingUncertainAcrossWorkspaces,
  settleMail,
  takeDueMailAcrossWorkspaces,
  type MailEnd,
  type MailRow,
} from './webinar-mail-data.ts';
import { findRegistrant, isSuppressed } from './webinar-registrants-data.ts';
import { findWebinar, type WebinarRow } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import type { SendOutcome } from '../connectors/providers/mailbox.ts';
import { sendMail } from '../connectors/providers/providers.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { messageIdFor } from '../sequences/compose.ts';
import { composeWebinarMail } from './compose.ts';
import { joinUrl } from './wire.ts';

const BATCH = 50;
const MAX_ATTEMPTS = 5;
const HOUR_MS = 3_600_000;

const retry = (deps: Deps, m: MailRow, code: string, message: string): MailEnd =>
  m.attempts >= MAX_ATTEMPTS
    ? { status: 'failed', code, message: `${message} (gave up after ${m.attempts} attempts)` }
    : { status: 'scheduled', code, message, retryAt: new Date(deps.clock.now().getTime() + 60_000 * 2 ** m.attempts) };

/** Why this mail must not go now, if so. */
async function skipReason(deps: Deps, m: MailRow, w: WebinarRow): Promise<string | null> {
  const now = deps.clock.now();
  if (w.status === 'cancelled' && m.kind !== 'cancellation') return 'webinar_cancelled';
  if ((m.kind === 'confirmation' || m.kind === 'update') && m.ical_sequence < w.ical_sequence) return 'superseded';
  const left = w.start_at.getTime() - now.getTime();
  // A 24 h reminder that could only go in the last two hours says the wrong thing; the 1 h one covers it.
  if ((m.kind === 'reminder_1h' && left <= 0) || (m.kind === 'reminder_24h' && left < 2 * HOUR_MS)) return 'too_late';
  if (await isSuppressed(deps.db.sql, m.workspace_id, emailHash(m.to_email))) return 'suppressed';
  return null;
}

/** The codes a refusal is stored under: the message refused fails; a mailbox that cannot send now waits for a retry. */
const REFUSED_RETRY_CODES = {
  connector_not_connected: 'token_unavailable',
  connector_refused: 'provider_unavailable',
  not_a_mailbox: 'connector_not_connected',
} as const;

/** How a send's outcome settles the mail. */
function mailEnd(deps: Deps, m: MailRow, outcome: SendOutcome): MailEnd {
  switch (outcome.kind) {
    case 'sent':
      return { status: 'sent', providerMessageId: outcome.providerMessageId };
    case 'retryable':
      return retry(deps, m, outcome.code, outcome.reason);
    case 'refused':
      return outcome.code === 'rejected'
        ? { status: 'failed', code: 'rejected', message: outcome.reason }
        : retry(deps, m, REFUSED_RETRY_CODES[outcome.code], outcome.reason);
    case 'bounced':
      // A registrant is not a lead: a refused address fails this mail and suppresses nobody.
      return { status: 'failed', code: 'rejected', message: outcome.reason };
    case 'uncertain':
      return {
        status: 'uncertain',
        code: outcome.code,
        message: `${outcome.reason}; it may have been delivered, so it is not retried.`,
      };
  }
}

async function sendOne(deps: Deps, m: MailRow): Promise<MailEnd> {
  const w = await findWebinar(deps.db.sql, m.workspace_id, m.webinar_id);
  const r = await findRegistrant(deps.db.sql, m.workspace_id, m.registrant_id);
  if (!r || r.status !== 'registered') return { status: 'skipped', code: 'registrant_removed' };
  // Registrants go with their webinar (on delete cascade), and it was read first: one still here has it.
  if (!w) throw new Error(`webinar ${m.webinar_id} is gone, its registrant ${r.id} is not`);
  const skip = await skipReason(deps, m, w);
  if (skip) return { status: 'skipped', code: skip };
  const connector = await findConnector(deps.db.sql, m.workspace_id, w.sender_connector_id);
  if (!connector || connector.status !== 'connected')
    return retry(
      deps,
      m,
      'connector_not_connected',
      `The sender ${w.sender_connector_id} is not connected; reconnect it with start_connector_oauth.`,
    );
  const from = connector.account_email as string;
  const raw = await composeWebinarMail({
    kind: m.kind,
    from,
    to: m.to_email,
    firstName: r.first_name,
    messageId: messageIdFor(m.id, from, randomUUID()),
    date: deps.clock.now(),
    invitation: {
      webinarId: w.id,
      sequence: w.ical_sequence,
      title: w.title,
      description: w.description,
      startAt: w.start_at,
      durationMinutes: w.duration_minutes,
      timezone: w.timezone,
      organizer: from,
      attendee: { email: m.to_email, name: [r.first_name, r.last_name].filter(Boolean).join(' ') || undefined },
      joinUrl: joinUrl(deps, r),
    },
  });
  return mailEnd(deps, m, await sendMail(deps, connector, raw));
}

/** One pass: sends what is due now, batch after batch. Returns how many rows it settled. */
export async function sendDueWebinarMail(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  await markStaleSendingUncertainAcrossWorkspaces(
    deps.db.sql,
    new Date(now.getTime() - deps.config.sequences.staleAfterSeconds * 1000),
  );
  let settled = 0;
  for (;;) {
    const batch = await takeDueMailAcrossWorkspaces(deps.db.sql, deps.clock.now(), BATCH);
    for (const m of batch) {
      await settleMail(deps.db.sql, m.workspace_id, m.id, await sendOne(deps, m), deps.clock.now());
      settled++;
    }
    if (batch.length < BATCH) return settled;
  }
}

/** Sends the webinar mail that is due: kicked by the change that queued it, and every minute. */
export const sendWebinarMailJob = defineJob({
  name: 'webinars.send-mail',
  payload: z.object({}).strict(),
  // One waiting and one running at a time: a burst of registrations costs one extra pass.
  policy: 'stately',
  retry: { limit: 2, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  handler: async (_payload, _job, deps: Deps) => {
    await sendDueWebinarMail(deps);
  },
});

export interface ReminderPayload {
  webinar_id: string;
  kind: string;
  due_at: string;
}

/** Sends a webinar's reminders at their time (delayed; the minute pass of sendWebinarMailJob is the net). */
export const sendWebinarReminderJob = defineJob({
  name: 'webinars.remind',
  payload: z.object({ webinar_id: z.string().min(1), kind: z.string().min(1), due_at: z.string().min(1) }).strict(),
  // One delayed job per webinar, reminder and time: re-registering or re-saving does not pile them up.
  policy: 'short',
  singletonKey: (p: ReminderPayload) => `${p.webinar_id}.${p.kind}.${p.due_at}`,
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  handler: async (_payload, _job, deps: Deps) => {
    await sendDueWebinarMail(deps);
  },
});
