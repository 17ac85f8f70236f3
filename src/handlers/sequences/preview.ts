// What a sequence would send, exactly as rendered for real leads (or made-up samples), and the checks that
// decide whether it may be approved and launched: `blocking` ones stop both, warnings inform the reviewer.
import { findConnector } from '../connectors/connectors-data.ts';
import { findLead, listLeadRows } from '../leads/leads-data.ts';
import { findWorkspaceSettings, type SequenceRow } from './sequences-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { renderStep, type RenderedMessage } from './template.ts';
import { signUnsubscribe } from './unsubscribe-token.ts';
import type { Actor } from '../actor.ts';
import { requireSequence } from './sequences-logic.ts';

export interface Check {
  code: string;
  severity: 'blocking' | 'warning';
  message: string;
  step?: number | null;
  lead_id?: string | null;
}

/** Subjects longer than this are cut in most inboxes' lists. */
export const SUBJECT_WARN_LENGTH = 78;

const SAMPLE_LEAD = { id: null, email: 'alex.sample@example.com', first_name: 'Alex', last_name: 'Sample', company: 'Example Co', title: 'Head of Marketing', custom_fields: {} };

export const unsubscribeUrl = (deps: Deps, target: { workspaceId: string; leadId: string; sequenceId: string }) =>
  `${deps.config.publicBaseUrl.replace(/\/$/, '')}/unsubscribe/${signUnsubscribe(deps.auth.apiKeyPepper, target)}`;

/** The checks that do not depend on a lead: sender, postal address, steps, limits. */
export async function sequenceChecks(deps: Deps, q: Queryable, workspaceId: string, s: SequenceRow): Promise<Check[]> {
  const checks: Check[] = [];
  const connector = s.sender_connector_id ? await findConnector(q, workspaceId, s.sender_connector_id) : undefined;
  if (!connector) checks.push({ code: 'sender_not_connected', severity: 'blocking', message: 'No sender: set sender_connector_id to a connected Gmail connector (start_connector_oauth, then update_email_sequence).' });
  else if (connector.status !== 'connected') checks.push({ code: 'sender_not_connected', severity: 'blocking', message: `The sender connector ${connector.id} is ${connector.status}; connect it again (start_connector_oauth with reconnect_connector_id).` });
  const settings = await findWorkspaceSettings(q, workspaceId);
  if (!settings.postal_address) checks.push({ code: 'missing_postal_address', severity: 'blocking', message: "Every message's footer must carry the sender's postal address: set it with update_workspace_settings." });
  for (const step of s.steps) {
    if (!step.subject.trim() || !step.body.trim()) checks.push({ code: 'empty_step', severity: 'blocking', step: step.position, message: `Step ${step.position} has an empty ${step.subject.trim() ? 'body' : 'subject'}.` });
    if (step.subject.length > SUBJECT_WARN_LENGTH) checks.push({ code: 'subject_too_long', severity: 'warning', step: step.position, message: `Step ${step.position}'s subject is ${step.subject.length} characters; inboxes show about ${SUBJECT_WARN_LENGTH}.` });
  }
  const cap = deps.config.sequences.mailboxDailyCap;
  if (s.daily_limit > cap) checks.push({ code: 'daily_limit_above_safe_rate', severity: 'warning', message: `The daily limit ${s.daily_limit} is above the sender's safe rate of ${cap} messages a day; no more than ${cap} will be sent.` });
  return checks;
}

export interface PreviewLead {
  lead_id: string | null;
  email: string;
  sample: boolean;
  messages: Array<{ position: number; subject: string; text: string; html: string; unresolved: string[] }>;
}

function renderFor(deps: Deps, s: SequenceRow, lead: Record<string, unknown>, postal: string | null): RenderedMessage[] {
  const url = lead.id ? unsubscribeUrl(deps, { workspaceId: s.workspace_id, leadId: String(lead.id), sequenceId: s.id }) : `${deps.config.publicBaseUrl.replace(/\/$/, '')}/unsubscribe/example`;
  return s.steps.map((step) => renderStep(step, lead, { postalAddress: postal ?? '[postal address missing: set it in the workspace settings]', unsubscribeUrl: url }));
}

async function previewLeads(deps: Deps, workspaceId: string, leadIds: string[] | undefined): Promise<Array<Record<string, unknown> & { id: string | null }>> {
  if (leadIds?.length) {
    const found = await Promise.all(leadIds.map((id) => findLead(deps.db.sql, workspaceId, id)));
    const missing = leadIds.filter((_id, i) => !found[i]);
    if (missing.length) throw new ApiError('not_found', `No lead ${missing.join(', ')} in this workspace.`);
    return found as unknown as Array<Record<string, unknown> & { id: string }>;
  }
  const recent = await listLeadRows(deps.db.sql, workspaceId, { statuses: ['active'], limit: 3 });
  return recent.length ? (recent as unknown as Array<Record<string, unknown> & { id: string }>) : [SAMPLE_LEAD];
}

export async function previewSequence(deps: Deps, actor: Actor, request: { sequenceId: string; leadIds?: string[] }) {
  const s = await requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  const checks = await sequenceChecks(deps, deps.db.sql, actor.workspaceId, s);
  const settings = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
  const leads: PreviewLead[] = [];
  for (const lead of await previewLeads(deps, actor.workspaceId, request.leadIds)) {
    const rendered = renderFor(deps, s, lead, settings.postal_address);
    rendered.forEach((m, i) => {
      if (m.unresolved.length) {
        checks.push({ code: 'unresolved_variables', severity: 'warning', step: i + 1, lead_id: lead.id, message: `Step ${i + 1} cannot be sent to ${String(lead.email)}: no value for ${m.unresolved.map((v) => `{{${v}}}`).join(', ')} and no fallback. Such leads are skipped, never sent a blank; add a fallback like {{first_name | "there"}}.` });
      }
    });
    leads.push({ lead_id: lead.id, email: String(lead.email), sample: lead.id === null, messages: rendered.map((m, i) => ({ position: i + 1, ...m })) });
  }
  return { sequence_id: s.id, revision: s.revision, checks, leads };
}
