// The checks that decide whether a sequence may be approved and launched, whoever its leads are: `blocking`
// ones stop both, warnings inform the reviewer.
import { findConnectors, type ConnectorRow } from '../connectors/connectors-data.ts';
import { allowedToday } from '../connectors/mailbox-sending.ts';
import { connectorCapabilities } from '../connectors/google/google-endpoints.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { findWorkspaceSettings, type SequenceRow, type SequenceStep } from './sequences-data.ts';
import { messageTemplate, stepName, stepVersions } from './variants.ts';

export interface Check {
  code: string;
  severity: 'blocking' | 'warning';
  message: string;
  step?: number | null;
  lead_id?: string | null;
}

/** Subjects longer than this are cut in most inboxes' lists. */
export const SUBJECT_WARN_LENGTH = 78;

/** A sequence that stops when the lead replies needs a sender that can see replies; the fix, in words. */
export const repliesNotSeen = (connectorId: string) =>
  `The sequence stops for a lead who replies (stop_on_reply), but sender ${connectorId} cannot read replies. Call start_connector_oauth with provider "gmail", reconnect_connector_id "${connectorId}" and capabilities ["read_replies"] and have your human allow it; or set stop_on_reply false (update_email_sequence) to send without watching for replies.`;

/** Whether the sequence stops on replies that its sender cannot see. */
export const repliesUnseen = (s: SequenceRow, connector: ConnectorRow) =>
  s.stop_on_reply && !connectorCapabilities(connector).includes('read_replies');

/** Why a mailbox cannot send now, in words with the fix; null when it can. */
export function mailboxProblem(c: ConnectorRow): { code: string; message: string } | null {
  const name = `${c.id}${c.account_email ? ` (${c.account_email})` : ''}`;
  if (c.status !== 'connected')
    return {
      code: 'sender_not_connected',
      message: `The sender connector ${name} is ${c.status}; connect it again (start_connector_oauth with reconnect_connector_id).`,
    };
  if (c.sending_paused_reason === 'bounce_rate')
    return {
      code: 'mailbox_paused',
      message: `Mailbox ${name} is paused: its hard-bounce rate over its last sends passed ${c.bounce_rate_threshold}. Clean the list, then resume it with update_connector_sending {paused: false}.`,
    };
  if (c.sending_paused_reason)
    return {
      code: 'mailbox_paused',
      message: `Mailbox ${name} is paused (${c.sending_paused_reason}); resume it with update_connector_sending {paused: false}.`,
    };
  return null;
}

/** The sequence's mailboxes in its order (those that still exist). */
export async function sequenceMailboxes(q: Queryable, workspaceId: string, s: SequenceRow): Promise<ConnectorRow[]> {
  const found = new Map((await findConnectors(q, workspaceId, s.sender_connector_ids)).map((c) => [c.id, c]));
  return s.sender_connector_ids.flatMap((id) => found.get(id) ?? []);
}

/** A check per mailbox that cannot send: blocking when none of them can, else a warning (the others send). */
function mailboxChecks(s: SequenceRow, mailboxes: ConnectorRow[]): Check[] {
  if (mailboxes.length === 0)
    return [
      {
        code: 'sender_not_connected',
        severity: 'blocking',
        message:
          'No sender: set sender_connector_ids to connected Gmail connectors (start_connector_oauth, then update_email_sequence).',
      },
    ];
  const problems = mailboxes.flatMap((c) => mailboxProblem(c) ?? []);
  const severity = problems.length === mailboxes.length ? 'blocking' : 'warning';
  const checks: Check[] = problems.map((p) => ({ ...p, severity }));
  for (const c of mailboxes)
    if (repliesUnseen(s, c))
      checks.push({ code: 'replies_not_seen', severity: 'blocking', message: repliesNotSeen(c.id) });
  return checks;
}

/** A step's checks, run on each of its versions (each variant of an A/B test); a message names the variant. */
function stepChecks(steps: readonly SequenceStep[], step: SequenceStep): Check[] {
  const checks: Check[] = [];
  // What a version without a subject answers: "Re: " and any of step 1's subjects.
  const threadSubjects = steps[0] ? stepVersions(steps[0]).map((v) => `Re: ${v.subject ?? ''}`) : [];
  for (const version of stepVersions(step)) {
    const name = stepName(step.position, version.variant);
    const subject = messageTemplate(steps, step, version.variant, null).subject;
    if (!subject.trim() || !version.body.trim())
      checks.push({
        code: 'empty_step',
        severity: 'blocking',
        step: step.position,
        message: `${name} has an empty ${subject.trim() ? 'body' : 'subject'}.`,
      });
    if (subject.length > SUBJECT_WARN_LENGTH)
      checks.push({
        code: 'subject_too_long',
        severity: 'warning',
        step: step.position,
        message: `${name}'s subject is ${subject.length} characters; inboxes show about ${SUBJECT_WARN_LENGTH}.`,
      });
    // Gmail keeps a message in a thread only under the thread's subject: an own subject starts a new thread in the
    // sender's mailbox (the reply headers still point at the earlier messages).
    if (step.in_thread && version.subject !== null && !threadSubjects.includes(version.subject))
      checks.push({
        code: 'thread_subject_differs',
        severity: 'warning',
        step: step.position,
        message: `${name} is sent in the thread but sets its own subject, so Gmail shows it as a new conversation; remove its subject to answer as "Re: <first subject>", or set in_thread false.`,
      });
  }
  return checks;
}

/** The checks that do not depend on a lead: senders, postal address, steps, limits. */
export async function sequenceChecks(deps: Deps, q: Queryable, workspaceId: string, s: SequenceRow): Promise<Check[]> {
  const mailboxes = await sequenceMailboxes(q, workspaceId, s);
  const checks: Check[] = mailboxChecks(s, mailboxes);
  if (!s.stop_on_reply)
    checks.push({
      code: 'replies_do_not_stop',
      severity: 'warning',
      message: 'stop_on_reply is false: a lead who replies keeps getting the next steps.',
    });
  const settings = await findWorkspaceSettings(q, workspaceId);
  if (!settings.postal_address)
    checks.push({
      code: 'missing_postal_address',
      severity: 'blocking',
      message: "Every message's footer must carry the sender's postal address: set it with update_workspace_settings.",
    });
  for (const step of s.steps) checks.push(...stepChecks(s.steps, step));
  if (s.auto_select_winner && !s.steps.some((step) => step.variants?.length))
    checks.push({
      code: 'no_variants_to_test',
      severity: 'warning',
      message: 'auto_select_winner is set but no step has variants: there is nothing to pick a winner from.',
    });
  if (s.auto_select_winner?.metric === 'click_rate' && !s.tracking.clicks)
    checks.push({
      code: 'winner_metric_untracked',
      severity: 'warning',
      message:
        'auto_select_winner picks by click_rate, but click tracking is off, so no click is counted and no winner will be picked: turn tracking.clicks on or pick by reply_rate.',
    });
  const tracked = [s.tracking.opens && 'opens (a pixel)', s.tracking.clicks && 'clicks (rewritten links)'].filter(
    Boolean,
  );
  if (tracked.length)
    checks.push({
      code: 'tracking_on',
      severity: 'warning',
      message: `Tracking is on for ${tracked.join(' and ')}. It costs deliverability (spam filters weigh tracking pixels and redirected links) and the reader's privacy; machine opens and clicks are recorded but not counted. See docs/tracking.md; set tracking {opens: false, clicks: false} to send without it.`,
    });
  // What the sequence's mailboxes that can send may send today, together (each is shared with other sequences).
  const now = deps.clock.now();
  const cap = mailboxes
    .filter((c) => !mailboxProblem(c))
    .reduce((sum, c) => sum + allowedToday(c, deps.config.sequences.mailboxDailyCap, now), 0);
  if (cap > 0 && s.daily_limit > cap)
    checks.push({
      code: 'daily_limit_above_safe_rate',
      severity: 'warning',
      message: `The daily limit ${s.daily_limit} is above what the sequence's mailboxes may send, ${cap} messages a day (their caps and warm-up); no more than ${cap} will be sent.`,
    });
  return checks;
}
