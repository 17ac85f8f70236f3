// What mail a change owes registrants, queued in the change's own transaction: webinar_mail rows (their
// unique key makes queueing twice harmless) and the jobs that send them. Confirmations, updates and
// cancellations are due at once (the sender job is kicked); each reminder is due at its time, with a
// delayed job per webinar and reminder time, and the sender's minute sweep as the safety net.
import type { Queryable } from '../../db/queryable.ts';
import { queueMail, rescheduleReminders, skipScheduled, type MailKind, type NewMail } from './webinar-mail-data.ts';
import type { RegistrantRow } from './webinar-registrants-data.ts';
import type { WebinarRow } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import { sendWebinarMailJob, sendWebinarReminderJob } from './send-mail.ts';

const HOUR_MS = 3_600_000;
export const REMINDERS: ReadonlyArray<{ kind: MailKind; beforeMs: number }> = [
  { kind: 'reminder_24h', beforeMs: 24 * HOUR_MS },
  { kind: 'reminder_1h', beforeMs: HOUR_MS },
];

const reminderDue = (w: WebinarRow, beforeMs: number) => new Date(w.start_at.getTime() - beforeMs);

/** The reminders still ahead of `now` for these registrants (one registering an hour before gets no 24 h reminder). */
function reminders(w: WebinarRow, registrants: RegistrantRow[], now: Date): NewMail[] {
  return REMINDERS.filter((r) => reminderDue(w, r.beforeMs) > now).flatMap((r) =>
    registrants.map((reg) => ({
      registrantId: reg.id,
      toEmail: reg.email,
      kind: r.kind,
      icalSequence: 0,
      dueAt: reminderDue(w, r.beforeMs),
    })),
  );
}

async function kick(deps: Deps, tx: Queryable): Promise<void> {
  await deps.jobs.enqueue(sendWebinarMailJob, {}, { tx });
}

async function scheduleReminderJobs(deps: Deps, tx: Queryable, w: WebinarRow, now: Date): Promise<void> {
  for (const r of REMINDERS) {
    const due = reminderDue(w, r.beforeMs);
    if (due <= now) continue;
    await deps.jobs.enqueue(
      sendWebinarReminderJob,
      { webinar_id: w.id, kind: r.kind, due_at: due.toISOString() },
      { tx, startAfter: due },
    );
  }
}

/** A new registrant: the confirmation with the invitation now, the reminders at their times. */
export async function planRegistrantMail(
  deps: Deps,
  tx: Queryable,
  w: WebinarRow,
  registrants: RegistrantRow[],
): Promise<void> {
  if (registrants.length === 0) return;
  const now = deps.clock.now();
  const confirmations = registrants.map((reg) => ({
    registrantId: reg.id,
    toEmail: reg.email,
    kind: 'confirmation' as const,
    icalSequence: w.ical_sequence,
    dueAt: now,
  }));
  await queueMail(tx, w.workspace_id, deps.ids, w.id, [...confirmations, ...reminders(w, registrants, now)], now);
  await scheduleReminderJobs(deps, tx, w, now);
  await kick(deps, tx);
}

/**
 * The invitation changed (time, title, description or meeting): an updated invitation to everyone, and the
 * reminders moved to the (perhaps new) time; a reminder already sent stays sent.
 */
export async function planInvitationUpdate(
  deps: Deps,
  tx: Queryable,
  w: WebinarRow,
  registrants: RegistrantRow[],
): Promise<void> {
  const now = deps.clock.now();
  for (const r of REMINDERS) await rescheduleReminders(tx, w.workspace_id, w.id, r.kind, reminderDue(w, r.beforeMs));
  // An invitation not yet sent would show the old details: the update replaces it.
  await skipScheduled(tx, w.workspace_id, { webinarId: w.id, kinds: ['confirmation', 'update'] }, 'superseded');
  const updates = registrants.map((reg) => ({
    registrantId: reg.id,
    toEmail: reg.email,
    kind: 'update' as const,
    icalSequence: w.ical_sequence,
    dueAt: now,
  }));
  await queueMail(tx, w.workspace_id, deps.ids, w.id, [...updates, ...reminders(w, registrants, now)], now);
  await scheduleReminderJobs(deps, tx, w, now);
  await kick(deps, tx);
}

/** Cancelled: nothing else goes out, and everyone gets the cancellation. */
export async function planCancellation(
  deps: Deps,
  tx: Queryable,
  w: WebinarRow,
  registrants: RegistrantRow[],
): Promise<void> {
  const now = deps.clock.now();
  await skipScheduled(
    tx,
    w.workspace_id,
    { webinarId: w.id, kinds: ['confirmation', 'update', 'reminder_24h', 'reminder_1h'] },
    'webinar_cancelled',
  );
  const cancellations = registrants.map((reg) => ({
    registrantId: reg.id,
    toEmail: reg.email,
    kind: 'cancellation' as const,
    icalSequence: w.ical_sequence,
    dueAt: now,
  }));
  await queueMail(tx, w.workspace_id, deps.ids, w.id, cancellations, now);
  await kick(deps, tx);
}
