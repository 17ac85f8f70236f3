import type { UpdateLeadInput, UpdateLeadOutput } from '../../generated/handlers.ts';
import { findLead, updateLeadFields, type LeadRow } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { addressTaken, leadNotFound, normalizedLead } from './lead-input.ts';
import { leadBody } from './wire.ts';

const EDITABLE = [
  'email',
  'first_name',
  'last_name',
  'company',
  'title',
  'phone',
  'website',
  'linkedin_url',
  'timezone',
  'tags',
  'custom_fields',
] as const;

/** Changes the given fields (null clears one); any member may. The status only changes through unsubscribe. */
export async function updateLead(
  deps: Deps,
  actor: Actor,
  leadId: string,
  patch: Record<string, unknown>,
): Promise<LeadRow> {
  const current = await findLead(deps.db.sql, actor.workspaceId, leadId);
  if (!current) throw leadNotFound(leadId);
  const merged: Record<string, unknown> = {};
  for (const key of EDITABLE) merged[key] = current[key];
  const lead = normalizedLead({ ...merged, ...patch });
  try {
    const row = await updateLeadFields(deps.db.sql, actor.workspaceId, leadId, lead, deps.clock.now());
    if (!row) throw leadNotFound(leadId);
    return row;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw addressTaken(lead.email);
    throw error;
  }
}

export async function handle(input: UpdateLeadInput, ctx: HandlerContext): Promise<UpdateLeadOutput> {
  return { status: 200, body: leadBody(await updateLead(ctx.deps, actorFrom(ctx), input.path.lead_id, input.body)) };
}
