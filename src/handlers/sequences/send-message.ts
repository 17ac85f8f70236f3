// Sends one claimed message, or decides it must not go. Phase 1 (one transaction): the last checks (the
// sequence still active, the enrollment still on, the lead still there and not suppressed, every variable
// resolved) and the move to `sending`, committed before the provider is called. Phase 2: the send, through
// the connector's mailbox (one classified outcome). Phase 3: the outcome recorded. A process that dies between phases 1 and 3 leaves the
// message `sending`, which the sweep turns `uncertain`: it may have been delivered, so it is never retried.
// Phase 1 is in send-prepare.ts, phase 3 for a message that did not go in send-failure.ts.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import {
  advanceEnrollment,
  completeFinishedSequences,
  markSent,
  reopenUncertainEnrollment,
} from './sequence-sends-data.ts';
import type { Deps } from '../../deps.ts';
import { sendMail } from '../connectors/providers/providers.ts';
import { recordEvent } from '../events/record-event.ts';
import { sequenceEventData } from './wire.ts';
import { SYSTEM } from './send-settle.ts';
import { newRound, prepare, type Sending, type SendRound } from './send-prepare.ts';
import { NEXT, notSent, type MailboxNext } from './send-failure.ts';
import { checkThread } from '../replies/thread-check.ts';
import { markContacted } from '../leads/lead-stage.ts';

const DAY_MS = 86_400_000;

async function recordSent(
  deps: Deps,
  p: Sending,
  token: string,
  sent: { providerMessageId: string; threadId?: string },
): Promise<void> {
  const { message: m, sequence } = p;
  // Gmail answers with the thread it filed the message in; the one asked for stands in if it does not.
  const threadId = sent.threadId ?? p.threadId ?? null;
  const completed = await deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    const marked = await markSent(tx, m.workspace_id, m.id, token, {
      providerMessageId: sent.providerMessageId,
      threadId,
      now,
    });
    if (!marked) return false;
    if (m.lead_id) await markContacted(deps, tx, m.workspace_id, m.lead_id);
    await reopenUncertainEnrollment(tx, m.workspace_id, m.enrollment_id, now);
    const next = sequence.steps[m.step];
    await advanceEnrollment(
      tx,
      m.workspace_id,
      m.enrollment_id,
      next ? { step: m.step + 1, dueAt: new Date(now.getTime() + next.wait_days * DAY_MS) } : null,
      now,
    );
    // Only a lead's last step can finish the sequence.
    const done = next ? [] : await completeFinishedSequences(tx, m.workspace_id, sequence.id, now);
    if (done.length)
      await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_sequence.completed', {
        ...sequenceEventData(sequence),
        status: 'completed',
      });
    return done.length > 0;
  });
  if (completed) deps.resourceWatch.changed(sequence.id);
}

export async function sendClaimedMessage(
  deps: Deps,
  connector: ConnectorRow,
  claimed: MessageRow,
  token: string,
  round: SendRound = newRound(),
): Promise<MailboxNext> {
  // Never into an answered thread: a reply seen now stops the enrollment and this message (issue 28).
  const checked = await checkThread(deps, connector, claimed, token);
  if (checked) return checked;
  const prepared = await prepare(deps, connector, claimed, token, round);
  if (prepared.kind === 'skip') return NEXT;
  if (prepared.kind === 'stop') return { kind: 'stop', resumeAt: deps.clock.now() };
  const outcome = await sendMail(deps, connector, prepared.raw, { threadId: prepared.threadId });
  if (outcome.kind !== 'sent') return notSent(deps, connector, prepared, token, outcome);
  await recordSent(deps, prepared, token, outcome);
  return NEXT;
}
