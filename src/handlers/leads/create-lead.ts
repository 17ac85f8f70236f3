import type { CreateLeadInput, CreateLeadOutput } from '../../generated/handlers.ts';
import { insertLead, type LeadRow } from './leads-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { addressTaken, normalizedLead } from './lead-input.ts';
import { leadBody } from './wire.ts';

/**
 * Any member may. An address on the suppression list (unsubscribed, bounced, do-not-contact, deleted)
 * comes back with that status, never `active`.
 */
export async function createLead(deps: Deps, actor: Actor, input: Record<string, unknown>): Promise<LeadRow> {
  const lead = normalizedLead(input);
  return deps.db.sql.begin(async (tx) => {
    const row = await insertLead(tx, actor.workspaceId, deps.ids, lead, deps.clock.now());
    if (!row) throw addressTaken(lead.email);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.created', leadBody(row));
    return row;
  });
}

export async function handle(input: CreateLeadInput, ctx: HandlerContext): Promise<CreateLeadOutput> {
  return { status: 201, body: leadBody(await createLead(ctx.deps, actorFrom(ctx), input.body)) };
}
