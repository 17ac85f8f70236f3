import type { UnsubscribeLeadInput, UnsubscribeLeadOutput } from '../../generated/handlers.ts';
import { findLead, setLeadStatus, type LeadRow } from './leads-data.ts';
import { suppress } from './lead-suppressions-data.ts';
import { stopEnrollments } from '../sequences/sequence-enrollments-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { leadNotFound } from './lead-input.ts';
import { leadBody } from './wire.ts';

/** Status `unsubscribed` and the address on the suppression list; unsubscribing twice is harmless. Any member may. */
export async function unsubscribeLead(deps: Deps, actor: Actor, leadId: string): Promise<LeadRow> {
  return deps.db.sql.begin(async (tx) => {
    // The lead before its enrollments: the order a send to it takes (findLead's lock).
    const current = await findLead(tx, actor.workspaceId, leadId, { lock: 'no key update' });
    if (!current) throw leadNotFound(leadId);
    const now = deps.clock.now();
    await suppress(tx, actor.workspaceId, current.email, 'unsubscribed', now);
    await stopEnrollments(tx, actor.workspaceId, { leadId }, { status: 'stopped', reason: 'unsubscribed', now });
    if (current.status === 'unsubscribed') return current;
    // Bounced and do-not-contact are stronger than unsubscribed: they stay.
    if (current.status !== 'active') return current;
    const row = await setLeadStatus(tx, actor.workspaceId, leadId, 'unsubscribed', now);
    // Deleted since it was read, by a transaction that committed in between.
    if (!row) throw leadNotFound(leadId);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.unsubscribed', {
      id: row.id,
      status: row.status,
    });
    return row;
  });
}

export async function handle(input: UnsubscribeLeadInput, ctx: HandlerContext): Promise<UnsubscribeLeadOutput> {
  return { status: 200, body: leadBody(await unsubscribeLead(ctx.deps, actorFrom(ctx), input.path.lead_id)) };
}
