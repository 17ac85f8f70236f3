// Sends a batch of claimed messages from one mailbox, or decides which must not go. Phase 1 (send-prepare.ts):
// the last checks (the sequence still active, the enrollment still on, the lead still there and not suppressed,
// every variable resolved) and the move to `sending`, committed before the provider is called. Phase 2: the
// sends, in parallel, each through the connector's mailbox (one classified outcome). Phase 3: the outcomes
// recorded, the accepted ones in one transaction (send-record.ts), the others one by one (send-failure.ts).
// A process that dies between phases 1 and 3 leaves its messages `sending`, which the sweep turns `uncertain`:
// each may have been delivered, so none is retried. The sender makes a batch no larger than
// SEQUENCE_SENDS_IN_FLIGHT (sender.ts), so that is the most a dead sender leaves `uncertain`.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import type { Deps } from '../../deps.ts';
import { sendMail } from '../connectors/providers/providers.ts';
import type { SendOutcome } from '../connectors/providers/mailbox.ts';
import { newRound, prepareBatch, type SendRound } from './send-prepare.ts';
import { NEXT, notSent, type MailboxNext } from './send-failure.ts';
import { checkThread } from '../replies/thread-check.ts';
import { recordSentMany, type Accepted } from './send-record.ts';

export interface HeldMessage {
  message: MessageRow;
  token: string;
}

/** The later of two answers: a mailbox that must stop waits for the latest time any send asked for. */
const later = (a: MailboxNext, b: MailboxNext): MailboxNext =>
  a.kind === 'stop' && (b.kind !== 'stop' || a.resumeAt >= b.resumeAt) ? a : b;

export async function sendClaimedBatch(
  deps: Deps,
  connector: ConnectorRow,
  held: HeldMessage[],
  round: SendRound = newRound(),
): Promise<MailboxNext> {
  // Never into an answered thread: a reply seen now stops the enrollment and this message (issue 28).
  const checked: HeldMessage[] = [];
  for (const h of held) if (!(await checkThread(deps, connector, h.message, h.token))) checked.push(h);
  const prepared = await prepareBatch(deps, connector, checked, round);
  let next: MailboxNext = prepared.stop ? { kind: 'stop', resumeAt: deps.clock.now() } : NEXT;
  const outcomes = await Promise.all(
    prepared.sending.map(async (p) => ({
      p,
      // A mailbox classifies every failure; one that throws anyway may have reached the provider.
      outcome: await sendMail(deps, connector, p.raw, { threadId: p.threadId }).catch(
        (err: unknown): SendOutcome => ({ kind: 'uncertain', code: 'send_interrupted', reason: String(err) }),
      ),
    })),
  );
  const accepted: Accepted[] = [];
  for (const { p, outcome } of outcomes)
    if (outcome.kind === 'sent')
      accepted.push({ sending: p, providerMessageId: outcome.providerMessageId, threadId: outcome.threadId });
  await recordSentMany(deps, connector.workspace_id, accepted);
  for (const { p, outcome } of outcomes)
    if (outcome.kind !== 'sent') next = later(next, await notSent(deps, connector, p, p.token, outcome));
  return next;
}

/** One claimed message: a batch of one. */
export const sendClaimedMessage = (
  deps: Deps,
  connector: ConnectorRow,
  claimed: MessageRow,
  token: string,
  round: SendRound = newRound(),
): Promise<MailboxNext> => sendClaimedBatch(deps, connector, [{ message: claimed, token }], round);
