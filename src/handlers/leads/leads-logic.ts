// Single leads: read, list, create, update, unsubscribe, delete. Any member of the workspace may. An address on
// the suppression list (unsubscribed, bounced, do-not-contact, deleted) never becomes `active` again,
// whichever way it comes back; deleting a lead erases it and keeps only the hash of its address.
import { deleteLead as deleteRow, findLead, insertLead, type LeadFilter, type LeadRow, listLeads as listRows, setLeadStatus, updateLeadFields } from './leads-data.ts';
import { suppress } from './lead-suppressions-data.ts';
import { stopEnrollments } from '../sequences/sequence-enrollments-data.ts';
import { eraseLeadFromMessages } from '../sequences/sequence-messages-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { normalizeLead, type FieldError } from './lead-fields.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { leadBody } from './wire.ts';

const missing = (id: string) => new ApiError('not_found', `No lead ${id} in this workspace.`);

function invalid(errors: FieldError[]): ApiError {
  return new ApiError('validation_failed', `The lead is not valid: ${errors.map((e) => `${e.column} ${e.message}`).join('; ')}.`, {
    errors: errors.map((e) => ({ pointer: `/${e.column.replace('.', '/')}`, field: e.column, code: e.code, message: e.message })),
  });
}

function normalized(input: Record<string, unknown>) {
  const result = normalizeLead(input);
  if ('errors' in result) throw invalid(result.errors);
  return result.lead;
}

export async function getLead(deps: Deps, actor: Actor, id: string): Promise<LeadRow> {
  const row = await findLead(deps.db.sql, actor.workspaceId, id);
  if (!row) throw missing(id);
  return row;
}

/** A page of the workspace's leads, newest first. */
export function listLeads(deps: Deps, actor: Actor, filter: LeadFilter): Promise<LeadRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, filter);
}

const taken = (email: string) => new ApiError('already_exists', `The workspace already has a lead with the address ${email}.`);

export async function createLead(deps: Deps, actor: Actor, input: Record<string, unknown>): Promise<LeadRow> {
  const lead = normalized(input);
  return deps.db.sql.begin(async (tx) => {
    const row = await insertLead(tx, actor.workspaceId, deps.ids, lead, deps.clock.now());
    if (!row) throw taken(lead.email);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.created', leadBody(row));
    return row;
  });
}

const EDITABLE = ['email', 'first_name', 'last_name', 'company', 'title', 'phone', 'website', 'linkedin_url', 'timezone', 'tags', 'custom_fields'] as const;

/** Changes the given fields (null clears one); the status only changes through unsubscribe. */
export async function updateLead(deps: Deps, actor: Actor, leadId: string, patch: Record<string, unknown>): Promise<LeadRow> {
  const current = await findLead(deps.db.sql, actor.workspaceId, leadId);
  if (!current) throw missing(leadId);
  const merged: Record<string, unknown> = {};
  for (const key of EDITABLE) merged[key] = current[key];
  const lead = normalized({ ...merged, ...patch });
  try {
    const row = await updateLeadFields(deps.db.sql, actor.workspaceId, leadId, lead, deps.clock.now());
    if (!row) throw missing(leadId);
    return row;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw taken(lead.email);
    throw error;
  }
}

/** Status `unsubscribed` and the address on the suppression list; unsubscribing twice is harmless. */
export async function unsubscribeLead(deps: Deps, actor: Actor, leadId: string): Promise<LeadRow> {
  return deps.db.sql.begin(async (tx) => {
    const current = await findLead(tx, actor.workspaceId, leadId);
    if (!current) throw missing(leadId);
    const now = deps.clock.now();
    await suppress(tx, actor.workspaceId, current.email, 'unsubscribed', now);
    await stopEnrollments(tx, actor.workspaceId, { leadId }, { status: 'stopped', reason: 'unsubscribed', now });
    if (current.status === 'unsubscribed') return current;
    // Bounced and do-not-contact are stronger than unsubscribed: they stay.
    if (current.status !== 'active') return current;
    const row = (await setLeadStatus(tx, actor.workspaceId, leadId, 'unsubscribed', now)) as LeadRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.unsubscribed', { id: row.id, status: row.status });
    return row;
  });
}

/** Erases the lead; its address's hash stays on the suppression list, so it is never emailed again. */
export async function deleteLead(deps: Deps, actor: Actor, leadId: string): Promise<{ id: string }> {
  return deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    // Out of every sequence first, and its address and subjects off the messages kept for the limits.
    await stopEnrollments(tx, actor.workspaceId, { leadId }, { status: 'stopped', reason: 'lead_deleted', now });
    await eraseLeadFromMessages(tx, actor.workspaceId, leadId, now);
    const row = await deleteRow(tx, actor.workspaceId, leadId);
    if (!row) throw missing(leadId);
    await suppress(tx, actor.workspaceId, row.email, 'deleted', now);
    // The event names the lead only: its personal data is what was just erased.
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.deleted', { id: row.id });
    return { id: row.id };
  });
}
