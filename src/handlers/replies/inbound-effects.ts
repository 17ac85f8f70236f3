// What an inbound message does, by its classification and the sequence's settings (stop_on_reply,
// stop_on_auto_reply, auto_reply_pause_days, stop_for_company). Runs inside the transaction that recorded
// the message, and only in the one that inserted it (record-inbound.ts), so each effect happens once.
import type { MessageRow } from '../sequences/sequence-messages-data.ts';
import { stopEnrollments } from '../sequences/sequence-enrollments-data.ts';
import { bounce } from '../sequences/send-failure.ts';
import { pauseOnBounceRate } from '../sequences/mailbox-bounce-rate.ts';
import { findLead, setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import { markReplied } from '../leads/lead-stage.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../events/record-event.ts';
import {
  companyEnrollments,
  findReplySettings,
  postponeEnrollment,
  setLastReplied,
  setReplyState,
  type ReplySettings,
} from './inbound-data.ts';
import type { Classified } from './classify.ts';
import { companyDomainReader } from './company-domain.ts';

export type Effect = 'stopped' | 'paused' | 'suppressed' | 'none';

const SYSTEM = { type: 'system', id: null } as const;
const DEFAULTS: ReplySettings = {
  stop_on_reply: true,
  stop_on_auto_reply: false,
  auto_reply_pause_days: 3,
  stop_for_company: false,
};

interface Inbound {
  inboundId: string;
  message: MessageRow;
  classified: Classified;
  at: Date;
}

const eventData = (i: Inbound) => ({
  id: i.message.id,
  sequence_id: i.message.sequence_id,
  lead_id: i.message.lead_id,
  step: i.message.step,
  inbound_id: i.inboundId,
  classification: i.classified.classification,
  bounce_type: i.classified.bounceType,
});

async function stopOne(deps: Deps, tx: Queryable, m: MessageRow, reason: string): Promise<boolean> {
  const now = deps.clock.now();
  const stopped = await stopEnrollments(
    tx,
    m.workspace_id,
    { enrollmentId: m.enrollment_id },
    { status: 'stopped', reason, now },
  );
  return stopped.length > 0;
}

/** stop_for_company: the lead's colleagues in this sequence (same registrable domain, never free mail) stop too. */
async function stopCompany(deps: Deps, tx: Queryable, m: MessageRow, leadEmail: string): Promise<void> {
  const companyDomain = await companyDomainReader();
  const domain = companyDomain(leadEmail);
  if (!domain) return;
  const now = deps.clock.now();
  for (const e of await companyEnrollments(tx, m.workspace_id, m.sequence_id, domain)) {
    if (e.id === m.enrollment_id || companyDomain(e.email) !== domain) continue;
    await stopEnrollments(
      tx,
      m.workspace_id,
      { enrollmentId: e.id },
      { status: 'stopped', reason: 'company_replied', now },
    );
  }
}

async function reply(deps: Deps, tx: Queryable, i: Inbound, s: ReplySettings, email: string | null): Promise<Effect> {
  const m = i.message;
  await setReplyState(tx, m.workspace_id, m.id, 'replied', i.at);
  await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_message.replied', eventData(i));
  if (m.lead_id)
    await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'lead.replied', {
      id: m.lead_id,
      sequence_id: m.sequence_id,
      message_id: m.id,
      classification: 'reply',
    });
  if (s.stop_for_company && email) await stopCompany(deps, tx, m, email);
  if (!s.stop_on_reply) return 'none';
  return (await stopOne(deps, tx, m, 'replied')) ? 'stopped' : 'none';
}

async function autoReply(
  deps: Deps,
  tx: Queryable,
  i: Inbound,
  s: ReplySettings,
): Promise<{ effect: Effect; resumeAt: Date | null }> {
  const m = i.message;
  await setReplyState(tx, m.workspace_id, m.id, 'auto_replied', i.at);
  await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_message.auto_replied', eventData(i));
  if (s.stop_on_auto_reply)
    return { effect: (await stopOne(deps, tx, m, 'auto_replied')) ? 'stopped' : 'none', resumeAt: null };
  const resumeAt = await postponeEnrollment(
    tx,
    m.workspace_id,
    m.enrollment_id,
    s.auto_reply_pause_days,
    deps.clock.now(),
  );
  return { effect: resumeAt ? 'paused' : 'none', resumeAt };
}

/** The lead asked in words to hear no more: as unsubscribe_lead does (suppressed, out of every sequence). */
async function unsubscribeRequest(deps: Deps, tx: Queryable, i: Inbound, email: string | null): Promise<Effect> {
  const m = i.message;
  const now = deps.clock.now();
  await setReplyState(tx, m.workspace_id, m.id, 'unsubscribe_request', i.at);
  await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_message.replied', eventData(i));
  if (!m.lead_id || !email) return 'none';
  await suppress(tx, m.workspace_id, email, 'unsubscribed', now);
  await stopEnrollments(
    tx,
    m.workspace_id,
    { leadId: m.lead_id },
    { status: 'stopped', reason: 'unsubscribe_request', now },
  );
  const lead = await setLeadStatusIfActive(tx, m.workspace_id, m.lead_id, now);
  if (lead)
    await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'lead.unsubscribed', { id: lead.id, status: lead.status });
  return 'suppressed';
}

async function setLeadStatusIfActive(tx: Queryable, workspaceId: string, leadId: string, now: Date) {
  const lead = await findLead(tx, workspaceId, leadId);
  // Bounced and do-not-contact are stronger than unsubscribed: they stay.
  if (lead?.status !== 'active') return undefined;
  return setLeadStatus(tx, workspaceId, leadId, 'unsubscribed', now);
}

/** Applies the message's effect; answers it (and, for a pause, when the lead's next step is due). */
export async function applyEffect(
  deps: Deps,
  tx: Queryable,
  i: Inbound,
): Promise<{ effect: Effect; resumeAt: Date | null }> {
  const m = i.message;
  const settings = (await findReplySettings(tx, m.workspace_id, m.sequence_id)) ?? DEFAULTS;
  const lead = m.lead_id ? await findLead(tx, m.workspace_id, m.lead_id) : undefined;
  const email = lead?.email ?? null;
  // Answers in words (an unsubscribe request too) are replies; auto-replies and bounces leave the stage.
  if (m.lead_id && ['reply', 'unsubscribe_request'].includes(i.classified.classification)) {
    await setLastReplied(tx, m.workspace_id, m.lead_id, i.at);
    await markReplied(deps, tx, m.workspace_id, m.lead_id);
  }
  switch (i.classified.classification) {
    case 'reply':
      return { effect: await reply(deps, tx, i, settings, email), resumeAt: null };
    case 'auto_reply':
      return autoReply(deps, tx, i, settings);
    case 'unsubscribe_request':
      return { effect: await unsubscribeRequest(deps, tx, i, email), resumeAt: null };
    case 'bounce':
      // A delay notice changes nothing: the receiving server is still trying.
      if (i.classified.bounceType !== 'permanent') return { effect: 'none', resumeAt: null };
      await setReplyState(tx, m.workspace_id, m.id, 'bounced', i.at);
      await recordEvent(deps, tx, m.workspace_id, SYSTEM, 'email_message.bounced', eventData(i));
      if (email) await bounce(deps, tx, m, email);
      await pauseOnBounceRate(deps, tx, m.workspace_id, m.connector_id);
      return { effect: email ? 'suppressed' : 'none', resumeAt: null };
  }
}
