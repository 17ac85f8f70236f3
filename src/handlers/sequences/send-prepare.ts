// Phase 1 of a send (see send-message.ts), one transaction: the last checks and the move to `sending`.
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
import { advanceEnrollment, lockClaimedMessage, markSending } from './sequence-sends-data.ts';
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

type Prepared =
  | { kind: 'skip' }
  | { kind: 'stop' }
  | { kind: 'send'; raw: string; message: MessageRow; sequence: SequenceRow; to: string; threadId?: string };

export type Sending = Extract<Prepared, { kind: 'send' }>;

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

export async function prepare(
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
    const template = await templateToSend(tx, sequence, step, m, now);
    const rendered = renderStep(template, lead, {
      postalAddress: settings.postal_address,
      unsubscribeUrl: url,
    });
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
    const thread = await threadPlace(tx, m, step);
    const tracked = trackMessageHtml(deps, sequence.tracking, m, rendered.html, url);
    const raw = await composeSequenceMessage({
      from,
      to,
      subject: rendered.subject,
      text: rendered.text,
      html: tracked.html,
      messageId,
      unsubscribeUrl: url,
      date: now,
      inReplyTo: thread.inReplyTo,
      references: thread.references,
    });
    if (
      !(await markSending(tx, m.workspace_id, m.id, token, {
        to,
        subject: rendered.subject,
        messageIdHeader: messageId,
        tracking: { ...sequence.tracking, links: tracked.links },
        now,
      }))
    )
      return { kind: 'skip' };
    return { kind: 'send', raw, message: m, sequence, to, threadId: thread.threadId };
  });
}
