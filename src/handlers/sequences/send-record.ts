// Phase 3 of a send for the messages the provider took (see send-message.ts), a batch at once in one
// transaction: each message sent, its lead contacted, its enrollment on to its next step or complete, and a
// sequence whose last lead had its last step completed. The messages are gone by then: a transaction rolled back
// for meeting another (a deadlock with an import updating the same leads) is run again, not left to make them
// `uncertain` and stop their leads' enrollments.
import { retriedTransaction } from '../../db/transaction-retry.ts';
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../events/record-event.ts';
import { markContactedMany } from '../leads/lead-stage.ts';
import type { Sending } from './send-prepare.ts';
import { SYSTEM } from './send-settle.ts';
import { advanceSentEnrollments, completeFinishedSequences, markSentMany } from './sequence-sends-data.ts';
import { sequenceEventData } from './wire.ts';

const DAY_MS = 86_400_000;

export interface Accepted {
  sending: Sending;
  providerMessageId: string;
  threadId?: string;
}

export async function recordSentMany(deps: Deps, workspaceId: string, accepted: Accepted[]): Promise<void> {
  if (accepted.length === 0) return;
  const completed = await retriedTransaction(deps.db.sql, async (tx) => {
    const now = deps.clock.now();
    const marked = await markSentMany(
      tx,
      workspaceId,
      // Gmail answers with the thread it filed the message in; the one asked for stands in if it does not.
      accepted.map((a) => ({
        id: a.sending.message.id,
        token: a.sending.token,
        providerMessageId: a.providerMessageId,
        threadId: a.threadId ?? a.sending.threadId ?? null,
      })),
      now,
    );
    const byId = new Map(accepted.map((a) => [a.sending.message.id, a.sending]));
    const sent = marked.flatMap((row) => byId.get(row.id) ?? []);
    const leadIds = sent.flatMap((s) => (s.message.lead_id ? [s.message.lead_id] : []));
    await markContactedMany(deps, tx, workspaceId, leadIds);
    await advanceSentEnrollments(
      tx,
      workspaceId,
      sent.map(({ message: m, sequence }) => {
        const next = sequence.steps[m.step];
        return {
          enrollmentId: m.enrollment_id,
          next: next ? { step: m.step + 1, dueAt: new Date(now.getTime() + next.wait_days * DAY_MS) } : null,
        };
      }),
      now,
    );
    // Only a lead's last step can finish a sequence.
    const finishing = new Map(sent.filter((s) => !s.sequence.steps[s.message.step]).map((s) => [s.sequence.id, s]));
    const done = [];
    for (const { sequence } of finishing.values()) {
      if (!(await completeFinishedSequences(tx, workspaceId, sequence.id, now)).length) continue;
      await recordEvent(deps, tx, workspaceId, SYSTEM, 'email_sequence.completed', {
        ...sequenceEventData(sequence),
        status: 'completed',
      });
      done.push(sequence.id);
    }
    return done;
  });
  for (const id of completed) deps.resourceWatch.changed(id);
}
