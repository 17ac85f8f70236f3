// Never into an answered thread: before a follow-up goes out, one metadata read of the thread of the
// enrollment's last sent message. An answer newer than that message is recorded through the same path as
// the minute sync (so its effect — a stop, a pause — happens once, whoever sees it first), and the send
// then finds its enrollment stopped. When the read fails, the message waits a little and is tried again
// (the attempt counts); after CHECK_ATTEMPTS failed checks it goes without one: a provider outage must not
// hold a sequence forever, and the minute sync still stops the lead's later steps.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import { connectorCapabilities } from '../connectors/google/google-endpoints.ts';
import type { ReadOutcome } from '../connectors/providers/mailbox.ts';
import { providerFor } from '../connectors/providers/providers.ts';
import type { MessageRow } from '../sequences/sequence-messages-data.ts';
import { settleMessage } from '../sequences/sequence-sends-data.ts';
import type { MailboxNext } from '../sequences/send-failure.ts';
import type { Deps } from '../../deps.ts';
import { lastSentInThread } from './inbound-data.ts';
import { readFailure } from './read-failure.ts';
import { recordInbound } from './record-inbound.ts';

const CHECK_ATTEMPTS = 3;
const RETRY_SECONDS = 60;

/** Puts the claimed message back until `at`; `attempted`: the claim's attempt counts (a failed check). */
async function putBack(
  deps: Deps,
  m: MessageRow,
  token: string,
  at: Date,
  attempted: boolean,
  code: string,
  message: string,
) {
  const end = { status: 'scheduled' as const, code, message, retryAt: at, attempted };
  await settleMessage(deps.db.sql, m.workspace_id, m.id, token, end, deps.clock.now());
}

/**
 * Checks the thread before a follow-up: null to go on with the send (nothing new, or nothing to check);
 * else what the mailbox does next, the message having been cancelled (the lead answered) or put back.
 */
export async function checkThread(
  deps: Deps,
  connector: ConnectorRow,
  m: MessageRow,
  token: string,
): Promise<MailboxNext | null> {
  if (m.step <= 1 || !connectorCapabilities(connector).includes('read_replies')) return null;
  const reader = providerFor(connector.provider)?.mailbox?.read;
  const last = reader && (await lastSentInThread(deps.db.sql, m.workspace_id, m.enrollment_id));
  if (!reader || !last) return null;
  // A reader that throws is a failed check like any other: the send path must not crash on it.
  const thread = await reader
    .thread(deps, connector, last.thread_id)
    .catch((err: unknown): ReadOutcome<never> => ({ kind: 'retryable', reason: String(err) }));
  if (thread.kind === 'not_found') return null;
  if (thread.kind !== 'ok') {
    const reason = readFailure(connector, thread);
    if (m.attempts >= CHECK_ATTEMPTS) {
      deps.log.warn({ message_id: m.id, reason }, 'thread check failed again; the follow-up goes without it');
      return null;
    }
    const at = new Date(deps.clock.now().getTime() + RETRY_SECONDS * m.attempts * 1000);
    await putBack(
      deps,
      m,
      token,
      at,
      true,
      'thread_check_failed',
      `The thread could not be checked for replies: ${reason}`,
    );
    return { kind: 'next' };
  }
  let resumeAt: Date | null = null;
  for (const message of thread.value.messages) {
    if (!(message.receivedAt > last.sent_at)) continue;
    const recorded = await recordInbound(deps, connector, message, null);
    if (recorded?.resumeAt && recorded.message.enrollment_id === m.enrollment_id) resumeAt = recorded.resumeAt;
  }
  // An auto-reply paused the lead: this claimed message waits with the rest of its steps.
  if (resumeAt) {
    await putBack(deps, m, token, resumeAt, false, 'auto_replied', 'The lead sent an auto-reply; the step waits.');
    return { kind: 'next' };
  }
  return null;
}
