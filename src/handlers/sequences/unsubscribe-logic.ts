// Unsubscribing through an email's signed link: the recipient's own confirmation, or the RFC 8058
// one-click POST their mail client sends. The lead becomes unsubscribed, its address goes on the
// suppression list, and every enrollment it has stops at once with its unsent messages cancelled.
import { findConnector } from '../connectors/connectors-data.ts';
import { findLead, setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { findSequence } from './sequences-data.ts';
import { findWorkspace } from '../users/workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { verifyUnsubscribe, type UnsubscribeTarget } from './unsubscribe-token.ts';
import { recordEvent } from '../events/record-event.ts';

/** Who sent the mail: the workspace (the company) and the address its sequence sends from, when still known. */
export interface UnsubscribeSender {
  name: string | null;
  address: string | null;
}

export type UnsubscribeOutcome =
  | { ok: false }
  | { ok: true; target: UnsubscribeTarget; email: string | null; already: boolean; sender: UnsubscribeSender };

/** The sender a recipient recognises, so the page says whose emails stop. */
async function senderOf(deps: Deps, target: UnsubscribeTarget): Promise<UnsubscribeSender> {
  const sql = deps.db.sql;
  const [workspace, sequence] = await Promise.all([findWorkspace(sql, target.workspaceId), findSequence(sql, target.workspaceId, target.sequenceId)]);
  const connector = sequence?.sender_connector_id ? await findConnector(sql, target.workspaceId, sequence.sender_connector_id) : undefined;
  return { name: workspace?.name ?? null, address: connector?.account_email ?? null };
}

/** Reads a link without acting on it (the confirmation page: link scanners fetch it too). */
export async function readUnsubscribeLink(deps: Deps, token: string): Promise<UnsubscribeOutcome> {
  const target = verifyUnsubscribe(deps.auth.apiKeyPepper, token);
  if (!target) return { ok: false };
  const [lead, sender] = await Promise.all([findLead(deps.db.sql, target.workspaceId, target.leadId), senderOf(deps, target)]);
  return { ok: true, target, email: lead?.email ?? null, already: !lead || lead.status !== 'active', sender };
}

export async function unsubscribeByLink(deps: Deps, token: string, via: 'page' | 'one_click'): Promise<UnsubscribeOutcome> {
  const target = verifyUnsubscribe(deps.auth.apiKeyPepper, token);
  if (!target) return { ok: false };
  const { workspaceId, leadId } = target;
  const sender = await senderOf(deps, target);
  return deps.db.sql.begin(async (tx) => {
    const lead = await findLead(tx, workspaceId, leadId);
    // A deleted lead's address is already on the suppression list.
    if (!lead) return { ok: true as const, target, email: null, already: true, sender };
    const now = deps.clock.now();
    await suppress(tx, workspaceId, lead.email, 'unsubscribed', now);
    const stopped = await stopEnrollments(tx, workspaceId, { leadId }, { status: 'stopped', reason: 'unsubscribed', now });
    const already = lead.status !== 'active';
    if (!already) {
      const row = await setLeadStatus(tx, workspaceId, leadId, 'unsubscribed', now);
      await recordEvent(deps, tx, workspaceId, { type: 'system', id: null }, 'lead.unsubscribed', { id: leadId, status: row?.status ?? 'unsubscribed', sequence_id: target.sequenceId, via, enrollments_stopped: stopped.length });
    }
    return { ok: true as const, target, email: lead.email, already, sender };
  });
}
