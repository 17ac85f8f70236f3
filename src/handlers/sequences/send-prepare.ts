// Phase 1 of a send (see send-message.ts), for a batch of claimed messages at once: their last-moment facts in
// one query, the ones that must not go ended (each with its reason), and the rest rendered and moved to
// `sending` in one statement, committed before any of them is handed to the provider.
import { randomUUID } from 'node:crypto';
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import {
  findSequence,
  findWorkspaceSettings,
  setSequenceStatus,
  type SequenceRow,
  type WorkspaceSettingsRow,
} from './sequences-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import {
  advanceEnrollment,
  claimedFacts,
  markSendingMany,
  type MessageEnd,
  type Outgoing,
  type SendingFacts,
} from './sequence-sends-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { composeSequenceMessage, messageIdFor } from './compose.ts';
import { renderStep } from './template.ts';
import { templateToSend } from './send-variant.ts';
import { recordEvent } from '../events/record-event.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';
import { trackMessageHtml } from './tracking-html.ts';
import { sequenceEventData } from './wire.ts';
import { settle, SYSTEM } from './send-settle.ts';
import { threadPlace } from './send-thread.ts';

/** A message moved to `sending`: what goes to the provider, and what its outcome is recorded against. */
export interface Sending {
  raw: string;
  message: MessageRow;
  token: string;
  sequence: SequenceRow;
  to: string;
  threadId?: string;
}

/** `stop`: the mailbox cannot go on now (the workspace has no postal address; its sequences were paused). */
export interface Prepared {
  sending: Sending[];
  stop: boolean;
}

/**
 * What a claimed message's batch shares, read once for the round: each sequence (re-read when its revision
 * moved on) and the workspace's settings.
 */
export interface SendRound {
  sequences: Map<string, SequenceRow>;
  settings?: WorkspaceSettingsRow;
}

export const newRound = (): SendRound => ({ sequences: new Map() });

async function roundSequence(q: Queryable, round: SendRound, f: SendingFacts): Promise<SequenceRow> {
  const m = f.message;
  const cached = round.sequences.get(m.sequence_id);
  if (cached && cached.revision === f.sequence_revision) return cached;
  const row = await findSequence(q, m.workspace_id, m.sequence_id);
  if (!row) throw new Error(`sequence ${m.sequence_id} of message ${m.id} is gone`);
  round.sequences.set(row.id, row);
  return row;
}

/** Why a claimed message must not go, from its facts alone (and whether its enrollment stops); null: it may. */
function refusal(f: SendingFacts, now: Date): { end: MessageEnd; stop?: string } | null {
  if (f.sequence_status !== 'active')
    return {
      end: {
        status: 'scheduled',
        code: 'sequence_not_active',
        message: `The sequence is ${f.sequence_status}.`,
        retryAt: now,
      },
    };
  if (f.enrollment_status !== 'active')
    return {
      end: {
        status: 'cancelled',
        code: `enrollment_${f.enrollment_status}`,
        message: 'The lead left the sequence.',
      },
    };
  if (!f.lead)
    return {
      end: { status: 'cancelled', code: 'lead_deleted', message: 'The lead was deleted.' },
      stop: 'lead_deleted',
    };
  if (f.suppressed) {
    const reason = f.lead.status !== 'active' ? String(f.lead.status) : 'suppressed';
    const message = 'The lead must not be emailed (unsubscribed, bounced, do-not-contact or suppressed).';
    return { end: { status: 'cancelled', code: reason, message }, stop: reason };
  }
  return null;
}

/** No postal address: the messages wait and their sequences pause until one is set. */
async function pauseForPostalAddress(deps: Deps, held: Array<{ f: SendingFacts; token: string }>): Promise<void> {
  const now = deps.clock.now();
  const end = {
    status: 'scheduled' as const,
    code: 'missing_postal_address',
    message: 'The workspace has no postal address.',
    retryAt: now,
  };
  const workspaceId = held[0].f.message.workspace_id;
  await deps.db.sql.begin(async (tx) => {
    for (const { f, token } of held) await settle(deps, tx, f.message, token, end);
    for (const sequenceId of new Set(held.map(({ f }) => f.message.sequence_id))) {
      const paused = await setSequenceStatus(tx, workspaceId, sequenceId, {
        from: ['active'],
        to: 'paused',
        now,
        pauseReason: 'missing_postal_address',
      });
      if (paused) await recordEvent(deps, tx, workspaceId, SYSTEM, 'email_sequence.paused', sequenceEventData(paused));
    }
  });
}

/** Renders and composes one message that may go; undefined when a variable has no value (then it is ended). */
async function compose(
  deps: Deps,
  connector: ConnectorRow,
  f: SendingFacts,
  token: string,
  sequence: SequenceRow,
  settings: WorkspaceSettingsRow & { postal_address: string },
): Promise<{ row: Outgoing; sending: Sending } | undefined> {
  const m = f.message;
  const lead = f.lead as Record<string, unknown>;
  const now = deps.clock.now();
  const step = sequence.steps[m.step - 1];
  if (!step) {
    // An edit removed this step while the sequence was paused: the lead has had every step there is.
    await deps.db.sql.begin(async (tx) => {
      const end = { status: 'cancelled' as const, code: 'step_removed', message: `Step ${m.step} no longer exists.` };
      await settle(deps, tx, m, token, end);
      await advanceEnrollment(tx, m.workspace_id, m.enrollment_id, null, now);
    });
    return undefined;
  }
  const url = unsubscribeUrl(deps, { workspaceId: m.workspace_id, leadId: String(lead.id), sequenceId: sequence.id });
  const { variant, template } = templateToSend(sequence, step, m, f.first_variant);
  const rendered = renderStep(template, lead, { postalAddress: settings.postal_address, unsubscribeUrl: url });
  if (rendered.unresolved.length) {
    const message = `No value for ${rendered.unresolved.map((v) => `{{${v}}}`).join(', ')}.`;
    await deps.db.sql.begin((tx) =>
      settle(deps, tx, m, token, { status: 'cancelled', code: 'missing_variable', message }, 'missing_variable'),
    );
    return undefined;
  }
  const from = connector.account_email as string;
  const to = String(lead.email);
  const messageIdHeader = messageIdFor(m.id, from, randomUUID());
  const thread = threadPlace(m, step, f.earlier);
  const tracked = trackMessageHtml(deps, sequence.tracking, m, rendered.html, url);
  const raw = await composeSequenceMessage({
    from,
    to,
    subject: rendered.subject,
    text: rendered.text,
    html: tracked.html,
    messageId: messageIdHeader,
    unsubscribeUrl: url,
    date: now,
    inReplyTo: thread.inReplyTo,
    references: thread.references,
  });
  const tracking = { ...sequence.tracking, links: tracked.links };
  return {
    row: { id: m.id, token, to, subject: rendered.subject, messageIdHeader, variant, tracking },
    sending: { raw, message: { ...m, variant }, token, sequence, to, threadId: thread.threadId },
  };
}

/** Phase 1 for the held messages of one mailbox (one workspace): the checks, then the move to `sending`. */
export async function prepareBatch(
  deps: Deps,
  connector: ConnectorRow,
  held: Array<{ message: MessageRow; token: string }>,
  round: SendRound,
): Promise<Prepared> {
  const sql = deps.db.sql;
  const tokens = new Map(held.map((h) => [h.message.id, h.token]));
  const facts = await claimedFacts(
    sql,
    connector.workspace_id,
    [...tokens].map(([id, token]) => ({ id, token })),
  );
  const may: Array<{ f: SendingFacts; token: string }> = [];
  for (const f of facts) {
    const token = tokens.get(f.message.id) as string;
    const refused = refusal(f, deps.clock.now());
    if (!refused) may.push({ f, token });
    else await sql.begin((tx) => settle(deps, tx, f.message, token, refused.end, refused.stop));
  }
  if (may.length === 0) return { sending: [], stop: false };
  const settings = (round.settings ??= await findWorkspaceSettings(sql, connector.workspace_id));
  const { postal_address: postalAddress } = settings;
  if (!postalAddress) {
    await pauseForPostalAddress(deps, may);
    return { sending: [], stop: true };
  }
  const ready = [];
  for (const { f, token } of may) {
    const sequence = await roundSequence(sql, round, f);
    const composed = await compose(deps, connector, f, token, sequence, { ...settings, postal_address: postalAddress });
    if (composed) ready.push(composed);
  }
  const moved = await markSendingMany(
    sql,
    connector.workspace_id,
    ready.map((r) => r.row),
    deps.clock.now(),
  );
  return { sending: ready.filter((r) => moved.has(r.row.id)).map((r) => r.sending), stop: false };
}
