import type { UpdateLeadStageInput, UpdateLeadStageOutput } from '../../generated/handlers.ts';
import { findLead, type LeadRow, type LeadStage } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor } from '../events/record-event.ts';
import { leadNotFound } from './lead-input.ts';
import { changeLeadStage } from './lead-stage.ts';
import { leadBody } from './wire.ts';

/**
 * Sets the lead's stage, forward or back (a person corrects as well as advances); any member may. The stage
 * it already has answers the lead as it is, with no event, so a repeated call is harmless.
 */
export async function updateLeadStage(
  deps: Deps,
  actor: Actor,
  leadId: string,
  request: { stage: LeadStage; note?: string | null },
): Promise<LeadRow> {
  return deps.db.sql.begin(async (tx) => {
    const current = await findLead(tx, actor.workspaceId, leadId);
    if (!current) throw leadNotFound(leadId);
    const note = request.note?.trim() || null;
    const changed = await changeLeadStage(deps, tx, actor.workspaceId, leadId, {
      stage: request.stage,
      by: eventActor(actor),
      note,
    });
    return changed ?? current;
  });
}

export async function handle(input: UpdateLeadStageInput, ctx: HandlerContext): Promise<UpdateLeadStageOutput> {
  const lead = await updateLeadStage(ctx.deps, actorFrom(ctx), input.path.lead_id, input.body);
  return { status: 200, body: leadBody(lead) };
}
