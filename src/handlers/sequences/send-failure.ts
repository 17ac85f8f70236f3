// Phase 3 of a send that did not go (see send-message.ts): what the provider's answer means for the
// message, the lead and the mailbox. Each record is a transaction run again when the database rolls it back
// for meeting another (a deadlock with an import updating the same lead): given up, the message would be left
// `uncertain` and a bounced address unsuppressed.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import { pauseSequencesOfConnector } from './sequences-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import type { MessageEnd } from './sequence-sends-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { retriedTransaction } from '../../db/transaction-retry.ts';
import type { Deps } from '../../deps.ts';
import type { SendOutcome } from '../connectors/providers/mailbox.ts';
import { recordEvent } from '../events/record-event.ts';
import { sequenceEventData } from './wire.ts';
import { settle, SYSTEM } from './send-settle.ts';
import type { Sending } from './send-prepare.ts';
import { pauseOnBounceRate } from './mailbox-bounce-rate.ts';

/** Attempts before a message that keeps meeting 429/5xx is failed. */
export const MAX_ATTEMPTS = 5;

/** `next`: go on with the mailbox; `stop`: the mailbox cannot send before `resumeAt` (throttled, disconnected, paused). */
export type MailboxNext = { kind: 'next' } | { kind: 'stop'; resumeAt: Date };
export const NEXT: MailboxNext = { kind: 'next' };

/** The lead's address is bad: bounced and suppressed, out of every sequence (a send refused, or a late DSN: replies/record-inbound.ts). */
export async function bounce(deps: Deps, tx: Queryable, m: MessageRow, email: string): Promise<void> {
  const now = deps.clock.now();
  if (!m.lead_id) return;
  await suppress(tx, m.workspace_id, email, 'bounced', now);
  const lead = await setLeadStatus(tx, m.workspace_id, m.lead_id, 'bounced', now);
  await stopEnrollments(tx, m.workspace_id, { leadId: m.lead_id }, { status: 'stopped', reason: 'bounced', now });
  if (lead) await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'lead.bounced', { id: lead.id, status: lead.status });
}

const backoffSeconds = (attempts: number, retryAfter?: number) =>
  Math.max(retryAfter ?? 0, Math.min(3600, 60 * 2 ** Math.max(0, attempts - 1)));

async function pauseMailbox(deps: Deps, connector: ConnectorRow, reason: string): Promise<void> {
  const paused = await retriedTransaction(deps.db.sql, async (tx) => {
    const rows = await pauseSequencesOfConnector(tx, connector.workspace_id, connector.id, reason, deps.clock.now());
    for (const row of rows)
      await recordEvent(deps, tx, connector.workspace_id, SYSTEM, 'email_sequence.paused', sequenceEventData(row));
    return rows;
  });
  for (const row of paused) deps.resourceWatch.changed(row.id);
  if (paused.length)
    deps.log.warn(
      { connector_id: connector.id, reason, sequences: paused.length },
      'sequences paused: their sender cannot send',
    );
}

type NotSent = Exclude<SendOutcome, { kind: 'sent' }>;

/** The mailbox cannot send (its grant is gone, its token refused, not a mailbox): the message waits, its sequences pause. */
async function mailboxRefused(
  deps: Deps,
  connector: ConnectorRow,
  m: MessageRow,
  token: string,
  code: string,
  message: string,
): Promise<MailboxNext> {
  const now = deps.clock.now();
  await retriedTransaction(deps.db.sql, (tx) =>
    settle(deps, tx, m, token, { status: 'scheduled', code, message, retryAt: now }),
  );
  await pauseMailbox(deps, connector, code);
  return { kind: 'stop', resumeAt: now };
}

/** Nothing was delivered; the message goes again later and the mailbox as a whole waits as long (its other messages would meet the same answer). */
async function later(
  deps: Deps,
  m: MessageRow,
  token: string,
  outcome: Extract<SendOutcome, { kind: 'retryable' }>,
): Promise<MailboxNext> {
  const now = deps.clock.now();
  const wait = new Date(now.getTime() + backoffSeconds(m.attempts, outcome.retryAfterSeconds) * 1000);
  // No token: the provider was not asked, so the claim's attempt does not count and the message is never failed for it.
  const asked = outcome.code !== 'token_unavailable';
  const end: MessageEnd =
    asked && m.attempts >= MAX_ATTEMPTS
      ? { status: 'failed', code: outcome.code, message: `${outcome.reason} (gave up after ${m.attempts} attempts)` }
      : { status: 'scheduled', code: outcome.code, message: outcome.reason, retryAt: wait, attempted: asked };
  await retriedTransaction(deps.db.sql, (tx) => settle(deps, tx, m, token, end));
  return { kind: 'stop', resumeAt: end.status === 'scheduled' ? end.retryAt : wait };
}

/** What a send that did not go means for the message, the lead and the mailbox. */
export async function notSent(
  deps: Deps,
  connector: ConnectorRow,
  p: Sending,
  token: string,
  outcome: NotSent,
): Promise<MailboxNext> {
  const m = p.message;
  switch (outcome.kind) {
    case 'retryable':
      return later(deps, m, token, outcome);
    case 'refused':
      if (outcome.code === 'rejected') {
        await retriedTransaction(deps.db.sql, (tx) =>
          settle(deps, tx, m, token, { status: 'failed', code: 'rejected', message: outcome.reason }, 'failed'),
        );
        return NEXT;
      }
      return mailboxRefused(
        deps,
        connector,
        m,
        token,
        outcome.code === 'connector_not_connected' ? 'connector_expired' : 'connector_refused',
        outcome.reason,
      );
    case 'bounced': {
      const paused = await retriedTransaction(deps.db.sql, async (tx) => {
        await settle(deps, tx, m, token, { status: 'failed', code: 'bounced', message: outcome.reason });
        await bounce(deps, tx, m, p.to);
        return pauseOnBounceRate(deps, tx, m.workspace_id, m.connector_id);
      });
      // Paused for its bounce rate: the rest of this mailbox's batch waits (mailbox-bounce-rate.ts).
      return paused ? { kind: 'stop', resumeAt: deps.clock.now() } : NEXT;
    }
    case 'uncertain':
      await retriedTransaction(deps.db.sql, (tx) =>
        settle(
          deps,
          tx,
          m,
          token,
          {
            status: 'uncertain',
            code: outcome.code,
            message: `${outcome.reason}; the message may have been delivered, so it is not retried.`,
          },
          'uncertain',
        ),
      );
      return NEXT;
  }
}
