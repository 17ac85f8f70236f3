// The sending machinery, as two job kinds. `sequences.dispatch` (every minute, and whenever a launch,
// resume or enrollment makes something due) sweeps after dead senders, decides the A/B tests that are
// ready (select-variant-winners.ts), turns due steps into scheduled messages (each from the mailbox its
// enrollment is pinned to: mailbox-pinning.ts) and starts one `sequences.send-mailbox` per mailbox with work.
// A mailbox job reserves messages within the limits (the sequence's window and daily limit in its time zone,
// the mailbox's own 24-hour cap and warm-up ramp), sends them one at a time with a random pause between them
// (or, configured without a pause, several at once: see inFlight),
// and stops when nothing is due or the mailbox cannot send. Mailbox jobs are singletons per connector; the
// reservations (claims) make a second sender harmless anyway, so any number of instances can run these kinds.
import { randomUUID } from 'node:crypto';
import * as timers from 'node:timers/promises';
import { z } from 'zod';
import { findConnector, type ConnectorRow } from '../connectors/connectors-data.ts';
import { allowedToday, canSend } from '../connectors/mailbox-sending.ts';
import { pinWaitingEnrollments, sendableMailboxes } from './mailbox-pinning.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import {
  activeSequencesAcrossWorkspaces,
  claimMessages,
  countMailboxSendsSince,
  countSequenceSendsSince,
  lockMailbox,
  mailboxesWithDueMessages,
  materializeDueMessages,
  releaseStaleClaimsAcrossWorkspaces,
  sequencesWithDueMessages,
} from './sequence-claims-data.ts';
import { markStaleSendingUncertainAcrossWorkspaces, settleMessage } from './sequence-sends-data.ts';
import type { Deps } from '../../deps.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { startOfLocalDay, windowOpen } from './sending-window.ts';
import { recordEvent } from '../events/record-event.ts';
import { sendClaimedBatch } from './send-message.ts';
import { newRound } from './send-prepare.ts';
import { messageEventData } from './wire.ts';
import { findSequence } from './sequences-data.ts';
import { variantForNewMessage } from './variants.ts';
import { selectVariantWinners } from './select-variant-winners.ts';

const MATERIALIZE_BATCH = 5000;
const MAILBOX_BUDGET_MS = 4 * 60_000;

export interface MailboxPayload {
  workspace_id: string;
  connector_id: string;
}

/** After a sender died: reserved messages go back to scheduled; in-flight ones become uncertain (never retried). */
export async function sweepDeadSenders(
  deps: Deps,
  now: Date,
  staleAfterSeconds = deps.config.sequences.staleAfterSeconds,
): Promise<{ released: number; uncertain: number }> {
  const before = new Date(now.getTime() - staleAfterSeconds * 1000);
  const released = await releaseStaleClaimsAcrossWorkspaces(deps.db.sql, before, now);
  const uncertain = await deps.db.sql.begin(async (tx) => {
    const rows = await markStaleSendingUncertainAcrossWorkspaces(tx, before, now);
    for (const m of rows) {
      await stopEnrollments(
        tx,
        m.workspace_id,
        { enrollmentId: m.enrollment_id },
        { status: 'stopped', reason: 'uncertain', now },
      );
      await recordEvent(
        deps,
        tx,
        m.workspace_id,
        { type: 'system', id: null },
        'email_message.uncertain',
        messageEventData(m),
      );
    }
    return rows;
  });
  if (uncertain.length)
    deps.log.warn(
      { messages: uncertain.length },
      'sequence messages left in flight by a stopped sender are uncertain (not retried)',
    );
  return { released, uncertain: uncertain.length };
}

/** One dispatcher pass: pins the enrollments waiting for a mailbox, makes the due messages, returns the mailboxes with messages waiting. */
export async function dispatchDue(deps: Deps): Promise<MailboxPayload[]> {
  const now = deps.clock.now();
  await sweepDeadSenders(deps, now);
  // Before new messages are made, so they get a winner decided on this pass.
  await selectVariantWinners(deps);
  const mailboxes = new Map<string, MailboxPayload>();
  for (const s of await activeSequencesAcrossWorkspaces(deps.db.sql, now)) {
    const sendable = await sendableMailboxes(deps, deps.db.sql, s.workspace_id, s.sender_connector_ids);
    await pinWaitingEnrollments(deps, s.workspace_id, s.id, sendable);
    for (;;) {
      const made = await deps.db.sql.begin(async (tx) => {
        // Read under a share lock: a winner decided meanwhile waits for these messages, then switches them.
        const sequence = await findSequence(tx, s.workspace_id, s.id, { forShare: true });
        if (!sequence) return 0;
        return materializeDueMessages(tx, s.workspace_id, deps.ids, {
          sequenceId: s.id,
          now,
          limit: MATERIALIZE_BATCH,
          variantOf: (enrollmentId, step) => variantForNewMessage(sequence, enrollmentId, step),
        });
      });
      if (made < MATERIALIZE_BATCH) break;
    }
    for (const connectorId of await mailboxesWithDueMessages(deps.db.sql, s.workspace_id, s.id, now))
      mailboxes.set(connectorId, { workspace_id: s.workspace_id, connector_id: connectorId });
  }
  return [...mailboxes.values()];
}

/**
 * Reserves the next messages this mailbox may send now, within every limit; one claimer per mailbox at a time.
 * The mailbox's limit is its own (mailbox-sending.ts: its cap with the warm-up ramp), counted over 24 hours
 * across all sequences; it is read again under the lock, so a pause or a new cap applies to the next claim.
 */
export async function claimForMailbox(
  deps: Deps,
  connector: ConnectorRow,
): Promise<Array<{ message: MessageRow; token: string }>> {
  const now = deps.clock.now();
  const { mailboxDailyCap, claimBatch } = deps.config.sequences;
  return deps.db.sql.begin(async (tx) => {
    await lockMailbox(tx, connector.id);
    const current = await findConnector(tx, connector.workspace_id, connector.id);
    if (!current || !canSend(current)) return [];
    let mailboxLeft =
      allowedToday(current, mailboxDailyCap, now) -
      (await countMailboxSendsSince(tx, connector.workspace_id, connector.id, new Date(now.getTime() - 86_400_000)));
    const claimed: Array<{ message: MessageRow; token: string }> = [];
    for (const s of await sequencesWithDueMessages(tx, connector.workspace_id, connector.id, now)) {
      if (mailboxLeft <= 0 || claimed.length >= claimBatch) break;
      if (!windowOpen(s.schedule, now)) continue;
      const sequenceLeft =
        s.daily_limit -
        (await countSequenceSendsSince(tx, s.workspace_id, s.id, startOfLocalDay(s.schedule.timezone, now)));
      const n = Math.min(sequenceLeft, mailboxLeft, claimBatch - claimed.length);
      if (n <= 0) continue;
      const token = randomUUID();
      const rows = await claimMessages(tx, s.workspace_id, {
        sequenceId: s.id,
        connectorId: connector.id,
        limit: n,
        token,
        now,
      });
      claimed.push(...rows.map((message) => ({ message, token })));
      mailboxLeft -= rows.length;
    }
    return claimed;
  });
}

/** Puts reserved messages back unsent (their claim's attempt taken back), due again at `retryAt`. */
async function release(
  deps: Deps,
  held: Array<{ message: MessageRow; token: string }>,
  retryAt = deps.clock.now(),
): Promise<void> {
  const now = deps.clock.now();
  for (const { message, token } of held) {
    await settleMessage(
      deps.db.sql,
      message.workspace_id,
      message.id,
      token,
      { status: 'scheduled', code: 'released', message: 'Put back unsent.', retryAt },
      now,
    );
  }
}

const spacing = (deps: Deps) => {
  const { min, max } = deps.config.sequences.spacingMs;
  return min + Math.floor(Math.random() * (max - min + 1));
};

/**
 * Messages of one mailbox handed to the provider at once. With no pause between messages, up to
 * SEQUENCE_SENDS_IN_FLIGHT (default 8), each group's checks and moves to `sending` made in one statement
 * each and its outcomes recorded in one transaction; a sender's first message goes alone, so a mailbox that
 * is throttled or refused is found out by one message and the rest wait unsent. With a pause, one at a
 * time. A sender that dies leaves at most that many messages `uncertain`.
 */
const inFlight = (deps: Deps) => (deps.config.sequences.spacingMs.max === 0 ? deps.config.sequences.sendsInFlight : 1);

/** Sends this mailbox's due messages until none is left, a limit is reached or the mailbox cannot send. Returns whether work may remain. */
export async function sendFromMailbox(deps: Deps, payload: MailboxPayload, signal?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + MAILBOX_BUDGET_MS;
  const size = inFlight(deps);
  let n = 1;
  for (;;) {
    const connector = await findConnector(deps.db.sql, payload.workspace_id, payload.connector_id);
    if (!connector || !canSend(connector)) return false;
    const held = await claimForMailbox(deps, connector);
    if (held.length === 0) return false;
    const round = newRound();
    for (let i = 0; i < held.length; i += n, n = size) {
      if (signal?.aborted || Date.now() > deadline) {
        await release(deps, held.slice(i));
        return true;
      }
      const outcome = await sendClaimedBatch(deps, connector, held.slice(i, i + n), round);
      if (outcome.kind === 'stop') {
        await release(deps, held.slice(i + n), outcome.resumeAt);
        return false;
      }
      const pause = spacing(deps);
      if (pause > 0 && i + n < held.length)
        await timers.setTimeout(pause, undefined, { signal }).catch(() => undefined);
    }
  }
}

/** Finds the sequence messages that are due and queues one sendFromMailboxJob per mailbox holding some. */
export const dispatchSequenceMessagesJob = defineJob({
  name: 'sequences.dispatch',
  payload: z.object({}).strict(),
  // One waiting and one running at a time: a burst of launches and enrollments costs one extra pass.
  policy: 'stately',
  retry: { limit: 2, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  handler: async (_payload, _job, deps: Deps) => {
    for (const mailbox of await dispatchDue(deps)) await deps.jobs.enqueue(sendFromMailboxJob, mailbox);
  },
});

/** Sends one mailbox's due messages, spaced; asks for another dispatch when it had to stop early. */
export const sendFromMailboxJob = defineJob({
  name: 'sequences.send-mailbox',
  payload: z.object({ workspace_id: z.string().min(1), connector_id: z.string().min(1) }).strict(),
  policy: 'stately',
  singletonKey: (p: MailboxPayload) => p.connector_id,
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  handler: async (payload, job, deps: Deps) => {
    const more = await sendFromMailbox(deps, payload, job.signal);
    if (more) await deps.jobs.enqueue(dispatchSequenceMessagesJob, {});
  },
});
