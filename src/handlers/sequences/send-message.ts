// Sends one claimed message, or decides it must not go. Phase 1 (one transaction): the last checks (the
// sequence still active, the enrollment still on, the lead still there and not suppressed, every variable
// resolved) and the move to `sending`, committed before the provider is called. Phase 2: Gmail's
// users.messages.send. Phase 3: the answer recorded. A process that dies between phases 1 and 3 leaves the
// message `sending`, which the sweep turns `uncertain`: it may have been delivered, so it is never retried.
import { randomUUID } from 'node:crypto';
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import { findSequence, findWorkspaceSettings, pauseSequencesOfConnector, setSequenceStatus, type SequenceRow, type WorkspaceSettingsRow } from './sequences-data.ts';
import { advanceEnrollment, completeFinishedSequences, lockClaimedMessage, markSending, markSent, reopenUncertainEnrollment, settleMessage, type MessageEnd, type MessageRow } from './sequence-messages-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { ProviderError, sendRawMessage } from '../connectors/google/google-client.ts';
import { composeSequenceMessage, messageIdFor } from './compose.ts';
import { renderStep } from './template.ts';
import { accessTokenFor } from '../connectors/tokens.ts';
import { recordEvent } from '../events/record-event.ts';
import { unsubscribeUrl } from './preview.ts';
import { messageEventData, sequenceEventData } from './wire.ts';

const SYSTEM = { type: 'system' as const, id: null };
const DAY_MS = 86_400_000;
/** Attempts before a message that keeps meeting 429/5xx is failed. */
export const MAX_ATTEMPTS = 5;

/** `next`: go on with the mailbox; `stop`: the mailbox cannot send before `resumeAt` (throttled, disconnected, paused). */
export type SendOutcome = { kind: 'next' } | { kind: 'stop'; resumeAt: Date };
const NEXT: SendOutcome = { kind: 'next' };

type Prepared = { kind: 'skip' } | { kind: 'stop' } | { kind: 'send'; raw: string; message: MessageRow; sequence: SequenceRow; to: string };

async function settle(deps: Deps, tx: Queryable, m: MessageRow, token: string, end: MessageEnd, stop?: string): Promise<void> {
  const now = deps.clock.now();
  const row = await settleMessage(tx, m.workspace_id, m.id, token, end, now);
  if (stop) await stopEnrollments(tx, m.workspace_id, { enrollmentId: m.enrollment_id }, { status: 'stopped', reason: stop, now });
  if (row && (end.status === 'failed' || end.status === 'uncertain')) await recordEvent(deps, tx, m.workspace_id, SYSTEM, `email_message.${end.status}`, messageEventData(row));
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
  const row = (await findSequence(tx, m.workspace_id, m.sequence_id)) as SequenceRow;
  round.sequences.set(row.id, row);
  return row;
}

async function prepare(deps: Deps, connector: ConnectorRow, claimed: MessageRow, token: string, round: SendRound): Promise<Prepared> {
  return deps.db.sql.begin(async (tx): Promise<Prepared> => {
    const facts = await lockClaimedMessage(tx, claimed.workspace_id, claimed.id, token);
    if (!facts) return { kind: 'skip' };
    const m = facts.message;
    const now = deps.clock.now();
    if (facts.sequence_status !== 'active') {
      await settle(deps, tx, m, token, { status: 'scheduled', code: 'sequence_not_active', message: `The sequence is ${facts.sequence_status}.`, retryAt: now });
      return { kind: 'skip' };
    }
    if (facts.enrollment_status !== 'active') {
      await settle(deps, tx, m, token, { status: 'cancelled', code: `enrollment_${facts.enrollment_status}`, message: 'The lead left the sequence.' });
      return { kind: 'skip' };
    }
    const lead = facts.lead;
    if (!lead) {
      await settle(deps, tx, m, token, { status: 'cancelled', code: 'lead_deleted', message: 'The lead was deleted.' }, 'lead_deleted');
      return { kind: 'skip' };
    }
    if (facts.suppressed) {
      const reason = lead.status !== 'active' ? String(lead.status) : 'suppressed';
      await settle(deps, tx, m, token, { status: 'cancelled', code: reason, message: 'The lead must not be emailed (unsubscribed, bounced, do-not-contact or suppressed).' }, reason);
      return { kind: 'skip' };
    }
    const sequence = await roundSequence(tx, round, m, facts.sequence_revision);
    const settings = (round.settings ??= await findWorkspaceSettings(tx, m.workspace_id));
    if (!settings.postal_address) {
      await settle(deps, tx, m, token, { status: 'scheduled', code: 'missing_postal_address', message: 'The workspace has no postal address.', retryAt: now });
      const paused = await setSequenceStatus(tx, m.workspace_id, sequence.id, { from: ['active'], to: 'paused', now, pauseReason: 'missing_postal_address' });
      if (paused) await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_sequence.paused', sequenceEventData(paused));
      return { kind: 'stop' };
    }
    const step = sequence.steps[m.step - 1];
    if (!step) {
      // An edit removed this step while the sequence was paused: the lead has had every step there is.
      await settle(deps, tx, m, token, { status: 'cancelled', code: 'step_removed', message: `Step ${m.step} no longer exists.` });
      await advanceEnrollment(tx, m.workspace_id, m.enrollment_id, null, now);
      return { kind: 'skip' };
    }
    const url = unsubscribeUrl(deps, { workspaceId: m.workspace_id, leadId: String(lead.id), sequenceId: sequence.id });
    const rendered = renderStep(step, lead, { postalAddress: settings.postal_address, unsubscribeUrl: url });
    if (rendered.unresolved.length) {
      await settle(deps, tx, m, token, { status: 'cancelled', code: 'missing_variable', message: `No value for ${rendered.unresolved.map((v) => `{{${v}}}`).join(', ')}.` }, 'missing_variable');
      return { kind: 'skip' };
    }
    const from = connector.account_email as string;
    const to = String(lead.email);
    const messageId = messageIdFor(m.id, from, randomUUID());
    const raw = await composeSequenceMessage({ from, to, subject: rendered.subject, text: rendered.text, html: rendered.html, messageId, unsubscribeUrl: url, date: now });
    if (!(await markSending(tx, m.workspace_id, m.id, token, { to, subject: rendered.subject, messageIdHeader: messageId, now }))) return { kind: 'skip' };
    return { kind: 'send', raw, message: m, sequence, to };
  });
}

async function recordSent(deps: Deps, p: Extract<Prepared, { kind: 'send' }>, token: string, providerMessageId: string): Promise<void> {
  const { message: m, sequence } = p;
  const completed = await deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    const sent = await markSent(tx, m.workspace_id, m.id, token, { providerMessageId, now });
    if (!sent) return false;
    await reopenUncertainEnrollment(tx, m.workspace_id, m.enrollment_id, now);
    const next = sequence.steps[m.step];
    await advanceEnrollment(tx, m.workspace_id, m.enrollment_id, next ? { step: m.step + 1, dueAt: new Date(now.getTime() + next.wait_days * DAY_MS) } : null, now);
    // Only a lead's last step can finish the sequence.
    const done = next ? [] : await completeFinishedSequences(tx, m.workspace_id, sequence.id, now);
    if (done.length) await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_sequence.completed', { ...sequenceEventData(sequence), status: 'completed' });
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

const backoffSeconds = (attempts: number, retryAfter?: number) => Math.max(retryAfter ?? 0, Math.min(3600, 60 * 2 ** Math.max(0, attempts - 1)));

async function pauseMailbox(deps: Deps, connector: ConnectorRow, reason: string): Promise<void> {
  const paused = await deps.db.sql.begin(async (tx) => {
    const rows = await pauseSequencesOfConnector(tx, connector.workspace_id, connector.id, reason, deps.clock.now());
    for (const row of rows) await recordEvent(deps, tx, connector.workspace_id, SYSTEM, 'email_sequence.paused', sequenceEventData(row));
    return rows;
  });
  for (const row of paused) deps.resourceWatch.changed(row.id);
  if (paused.length) deps.log.warn({ connector_id: connector.id, reason, sequences: paused.length }, 'sequences paused: their sender cannot send');
}

/** The provider could not be asked (no access token): nothing was sent. An expired connector pauses its sequences. */
async function tokenFailure(deps: Deps, connector: ConnectorRow, p: Extract<Prepared, { kind: 'send' }>, token: string, error: unknown): Promise<SendOutcome> {
  const m = p.message;
  const now = deps.clock.now();
  const expired = error instanceof ApiError && error.code === 'connector_not_connected';
  if (!(error instanceof ApiError)) deps.log.error({ err: error, message_id: m.id }, 'sequence message: no access token');
  const message = error instanceof Error ? error.message : String(error);
  const end: MessageEnd = expired
    ? { status: 'scheduled', code: 'connector_expired', message, retryAt: now }
    : { status: 'scheduled', code: 'token_unavailable', message, retryAt: new Date(now.getTime() + backoffSeconds(m.attempts) * 1000) };
  await deps.db.sql.begin((tx) => settle(deps, tx, m, token, end));
  if (expired) await pauseMailbox(deps, connector, 'connector_expired');
  return { kind: 'stop', resumeAt: end.status === 'scheduled' ? end.retryAt : now };
}

/** What the provider's refusal or silence means for the message, the lead and the mailbox. */
async function handleFailure(deps: Deps, connector: ConnectorRow, p: Extract<Prepared, { kind: 'send' }>, token: string, error: unknown): Promise<SendOutcome> {
  const m = p.message;
  const now = deps.clock.now();
  const retry = (code: string, message: string, retryAfter?: number): MessageEnd =>
    m.attempts >= MAX_ATTEMPTS ? { status: 'failed', code, message: `${message} (gave up after ${m.attempts} attempts)` } : { status: 'scheduled', code, message, retryAt: new Date(now.getTime() + backoffSeconds(m.attempts, retryAfter) * 1000), attempted: true };
  if (!(error instanceof ProviderError)) {
    deps.log.error({ err: error, message_id: m.id }, 'sequence message: unexpected failure during the provider call');
    await deps.db.sql.begin((tx) => settle(deps, tx, m, token, { status: 'uncertain', code: 'send_interrupted', message: 'The provider call failed in an unexpected way; the message may have been delivered, so it is not retried.' }, 'uncertain'));
    return NEXT;
  }
  const { kind, status, detail } = error;
  if (kind === 'unauthorized') {
    await deps.db.sql.begin((tx) => settle(deps, tx, m, token, { status: 'scheduled', code: 'connector_refused', message: error.message, retryAt: now }));
    await pauseMailbox(deps, connector, 'connector_refused');
    return { kind: 'stop', resumeAt: now };
  }
  if (kind === 'forbidden' || (kind === 'unavailable' && (status !== undefined || detail.notSent))) {
    const end = retry(status === 429 ? 'rate_limited' : 'provider_unavailable', error.message, detail.retryAfterSeconds);
    await deps.db.sql.begin((tx) => settle(deps, tx, m, token, end));
    // The mailbox as a whole waits as long as this message: its other messages would meet the same answer.
    return { kind: 'stop', resumeAt: end.status === 'scheduled' ? end.retryAt : new Date(now.getTime() + backoffSeconds(m.attempts, detail.retryAfterSeconds) * 1000) };
  }
  if (kind === 'invalid_request') {
    const badAddress = /invalid to|recipient/i.test(detail.providerMessage ?? '');
    await deps.db.sql.begin(async (tx) => {
      await settle(deps, tx, m, token, { status: 'failed', code: badAddress ? 'bounced' : 'rejected', message: error.message }, badAddress ? undefined : 'failed');
      if (badAddress) await bounce(deps, tx, m, p.to);
    });
    return NEXT;
  }
  // No answer, or an answer we cannot read: the provider may have sent it.
  await deps.db.sql.begin((tx) => settle(deps, tx, m, token, { status: 'uncertain', code: 'no_answer', message: `${error.message}; the message may have been delivered, so it is not retried.` }, 'uncertain'));
  return NEXT;
}

export async function sendClaimedMessage(deps: Deps, connector: ConnectorRow, claimed: MessageRow, token: string, round: SendRound = newRound()): Promise<SendOutcome> {
  const prepared = await prepare(deps, connector, claimed, token, round);
  if (prepared.kind === 'skip') return NEXT;
  if (prepared.kind === 'stop') return { kind: 'stop', resumeAt: deps.clock.now() };
  // Getting a token happens apart from the send: a failure there certainly sent nothing.
  const tokenFor = (force: boolean) => accessTokenFor(deps, connector, { force }).then((t) => ({ t }), (error: unknown) => ({ error }));
  const first = await tokenFor(false);
  if ('error' in first) return tokenFailure(deps, connector, prepared, token, first.error);
  let sent;
  try {
    sent = await sendRawMessage(deps.connectors.gmail, first.t, prepared.raw);
  } catch (error) {
    // A refused access token means Gmail did not take the message: refresh once and send again.
    if (!(error instanceof ProviderError && error.kind === 'unauthorized')) return handleFailure(deps, connector, prepared, token, error);
    const fresh = await tokenFor(true);
    if ('error' in fresh) return tokenFailure(deps, connector, prepared, token, fresh.error);
    try {
      sent = await sendRawMessage(deps.connectors.gmail, fresh.t, prepared.raw);
    } catch (again) {
      return handleFailure(deps, connector, prepared, token, again);
    }
  }
  await recordSent(deps, prepared, token, sent.id);
  return NEXT;
}
