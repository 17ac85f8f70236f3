// Sends one claimed message, or decides it must not go. Phase 1 (one transaction): the last checks (the
// sequence still active, the enrollment still on, the lead still there and not suppressed, every variable
// resolved) and the move to `sending`, committed before the provider is called. Phase 2: the send, through
// the connector's mailbox (one classified outcome). Phase 3: the outcome recorded. A process that dies between phases 1 and 3 leaves the
// message `sending`, which the sweep turns `uncertain`: it may have been delivered, so it is never retried.
import { randomUUID } from 'node:crypto';
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import {
  findSequence,
  findWorkspaceSettings,
  pauseSequencesOfConnector,
  setSequenceStatus,
  type SequenceRow,
  type WorkspaceSettingsRow,
} from './sequences-data.ts';
import {
  advanceEnrollment,
  completeFinishedSequences,
  lockClaimedMessage,
  markSending,
  markSent,
  reopenUncertainEnrollment,
  settleMessage,
  type MessageEnd,
  type MessageRow,
} from './sequence-messages-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { SendOutcome } from '../connectors/providers/mailbox.ts';
import { sendMail } from '../connectors/providers/providers.ts';
import { composeSequenceMessage, messageIdFor } from './compose.ts';
import { renderStep } from './template.ts';
import { recordEvent } from '../events/record-event.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';
import { messageEventData, sequenceEventData } from './wire.ts';

const SYSTEM = { type: 'system' as const, id: null };
const DAY_MS = 86_400_000;
/** Attempts before a message that keeps meeting 429/5xx is failed. */
export const MAX_ATTEMPTS = 5;

/** `next`: go on with the mailbox; `stop`: the mailbox cannot send before `resumeAt` (throttled, disconnected, paused). */
export type MailboxNext = { kind: 'next' } | { kind: 'stop'; resumeAt: Date };
const NEXT: MailboxNext = { kind: 'next' };

type Prepared =
  | { kind: 'skip' }
  | { kind: 'stop' }
  | { kind: 'send'; raw: string; message: MessageRow; sequence: SequenceRow; to: string };

async function settle(
  deps: Deps,
  tx: Queryable,
  m: MessageRow,
  token: string,
  end: MessageEnd,
  stop?: string,
): Promise<void> {
  const now = deps.clock.now();
  const row = await settleMessage(tx, m.workspace_id, m.id, token, end, now);
  if (stop)
    await stopEnrollments(
      tx,
      m.workspace_id,
      { enrollmentId: m.enrollment_id },
      { status: 'stopped', reason: stop, now },
    );
  if (row && (end.status === 'failed' || end.status === 'uncertain'))
    await recordEvent(deps, tx, m.workspace_id, SYSTEM, `email_message.${end.status}`, messageEventData(row));
}

/**
 * What the messages of one claim round share, read once for the round: each sequence (re-read when its
 * revision moved on) and the workspace's settings.
 */
export interface SendRound {
  sequences: Map<string, SequenceRow>;
  settings?: WorkspaceSettingsRow;
}

export const newRound = (): SendRound => ({ sequences: new Map() });

async function roundSequence(tx: Queryable, round: SendRound, m: MessageRow, revision: number): Promise<SequenceRow> {
  const cached = round.sequences.get(m.sequence_id);
  if (cached && cached.revision === revision) return cached;
  const row = await findSequence(tx, m.workspace_id, m.sequence_id);
  if (!row) throw new Error(`sequence ${m.sequence_id} of message ${m.id} is gone`);
  round.sequences.set(row.id, row);
  return row;
}

async function prepare(
  deps: Deps,
  connector: ConnectorRow,
  claimed: MessageRow,
  token: string,
  round: SendRound,
): Promise<Prepared> {
  return deps.db.sql.begin(async (tx): Promise<Prepared> => {
    const facts = await lockClaimedMessage(tx, claimed.workspace_id, claimed.id, token);
    if (!facts) return { kind: 'skip' };
    const m = facts.message;
    const now = deps.clock.now();
    if (facts.sequence_status !== 'active') {
      await settle(deps, tx, m, token, {
        status: 'scheduled',
        code: 'sequence_not_active',
        message: `The sequence is ${facts.sequence_status}.`,
        retryAt: now,
      });
      return { kind: 'skip' };
    }
    if (facts.enrollment_status !== 'active') {
      await settle(deps, tx, m, token, {
        status: 'cancelled',
        code: `enrollment_${facts.enrollment_status}`,
        message: 'The lead left the sequence.',
      });
      return { kind: 'skip' };
    }
    const lead = facts.lead;
    if (!lead) {
      await settle(
        deps,
        tx,
        m,
        token,
        { status: 'cancelled', code: 'lead_deleted', message: 'The lead was deleted.' },
        'lead_deleted',
      );
      return { kind: 'skip' };
    }
    if (facts.suppressed) {
      const reason = lead.status !== 'active' ? String(lead.status) : 'suppressed';
      await settle(
        deps,
        tx,
        m,
        token,
        {
          status: 'cancelled',
          code: reason,
          message: 'The lead must not be emailed (unsubscribed, bounced, do-not-contact or suppressed).',
        },
        reason,
      );
      return { kind: 'skip' };
    }
    const sequence = await roundSequence(tx, round, m, facts.sequence_revision);
    const settings = (round.settings ??= await findWorkspaceSettings(tx, m.workspace_id));
    if (!settings.postal_address) {
      await settle(deps, tx, m, token, {
        status: 'scheduled',
        code: 'missing_postal_address',
        message: 'The workspace has no postal address.',
        retryAt: now,
      });
      const paused = await setSequenceStatus(tx, m.workspace_id, sequence.id, {
        from: ['active'],
        to: 'paused',
        now,
        pauseReason: 'missing_postal_address',
      });
      if (paused)
        await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_sequence.paused', sequenceEventData(paused));
      return { kind: 'stop' };
    }
    const step = sequence.steps[m.step - 1];
    if (!step) {
      // An edit removed this step while the sequence was paused: the lead has had every step there is.
      await settle(deps, tx, m, token, {
        status: 'cancelled',
        code: 'step_removed',
        message: `Step ${m.step} no longer exists.`,
      });
      await advanceEnrollment(tx, m.workspace_id, m.enrollment_id, null, now);
      return { kind: 'skip' };
    }
    const url = unsubscribeUrl(deps, { workspaceId: m.workspace_id, leadId: String(lead.id), sequenceId: sequence.id });
    const rendered = renderStep(step, lead, { postalAddress: settings.postal_address, unsubscribeUrl: url });
    if (rendered.unresolved.length) {
      await settle(
        deps,
        tx,
        m,
        token,
        {
          status: 'cancelled',
          code: 'missing_variable',
          message: `No value for ${rendered.unresolved.map((v) => `{{${v}}}`).join(', ')}.`,
        },
        'missing_variable',
      );
      return { kind: 'skip' };
    }
    const from = connector.account_email as string;
    const to = String(lead.email);
    const messageId = messageIdFor(m.id, from, randomUUID());
    const raw = await composeSequenceMessage({
      from,
      to,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId,
      unsubscribeUrl: url,
      date: now,
    });
    if (
      !(await markSending(tx, m.workspace_id, m.id, token, {
        to,
        subject: rendered.subject,
        messageIdHeader: messageId,
        now,
      }))
    )
      return { kind: 'skip' };
    return { kind: 'send', raw, message: m, sequence, to };
  });
}

async function recordSent(deps: Deps, p: Sending, token: string, providerMessageId: string): Promise<void> {
  const { message: m, sequence } = p;
  const completed = await deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    const sent = await markSent(tx, m.workspace_id, m.id, token, { providerMessageId, now });
    if (!sent) return false;
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

/** The lead's address is bad: bounced and suppressed, out of every sequence. */
async function bounce(deps: Deps, tx: Queryable, m: MessageRow, email: string): Promise<void> {
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
  const paused = await deps.db.sql.begin(async (tx) => {
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

type Sending = Extract<Prepared, { kind: 'send' }>;
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
  await deps.db.sql.begin((tx) => settle(deps, tx, m, token, { status: 'scheduled', code, message, retryAt: now }));
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
  await deps.db.sql.begin((tx) => settle(deps, tx, m, token, end));
  return { kind: 'stop', resumeAt: end.status === 'scheduled' ? end.retryAt : wait };
}

/** What a send that did not go means for the message, the lead and the mailbox. */
async function notSent(
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
        await deps.db.sql.begin((tx) =>
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
    case 'bounced':
      await deps.db.sql.begin(async (tx) => {
        await settle(deps, tx, m, token, { status: 'failed', code: 'bounced', message: outcome.reason });
        await bounce(deps, tx, m, p.to);
      });
      return NEXT;
    case 'uncertain':
      await deps.db.sql.begin((tx) =>
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

export async function sendClaimedMessage(
  deps: Deps,
  connector: ConnectorRow,
  claimed: MessageRow,
  token: string,
  round: SendRound = newRound(),
): Promise<MailboxNext> {
  const prepared = await prepare(deps, connector, claimed, token, round);
  if (prepared.kind === 'skip') return NEXT;
  if (prepared.kind === 'stop') return { kind: 'stop', resumeAt: deps.clock.now() };
  const outcome = await sendMail(deps, connector, prepared.raw);
  if (outcome.kind !== 'sent') return notSent(deps, connector, prepared, token, outcome);
  await recordSent(deps, prepared, token, outcome.providerMessageId);
  return NEXT;
}
