import type { GetLeadInput, GetLeadOutput } from '../../generated/handlers.ts';
import { findLead, type LeadRow } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { leadNotFound } from './lead-input.ts';
import { leadBody } from './wire.ts';

/** Any member of the workspace may. */
export async function getLead(deps: Deps, actor: Actor, id: string): Promise<LeadRow> {
  const row = await findLead(deps.db.sql, actor.workspaceId, id);
  if (!row) throw leadNotFound(id);
  return row;
}

export async function handle(input: GetLeadInput, ctx: HandlerContext): Promise<GetLeadOutput> {
  return { status: 200, body: leadBody(await getLead(ctx.deps, actorFrom(ctx), input.path.lead_id)) };
}
