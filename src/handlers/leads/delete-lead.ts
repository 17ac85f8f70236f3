import type { DeleteLeadInput, DeleteLeadOutput } from '../../generated/handlers.ts';
import { deleteLeadRow, findLead } from './leads-data.ts';
import { suppress } from './lead-suppressions-data.ts';
import { stopEnrollments } from '../sequences/sequence-enrollments-data.ts';
import { eraseLeadFromMessages } from '../sequences/sequence-messages-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { leadNotFound } from './lead-input.ts';

/**
 * Erases the lead; any member may. Its address's hash stays on the suppression list, so it is never
 * emailed again and, created or imported again, comes back as do-not-contact.
 */
export async function deleteLead(deps: Deps, actor: Actor, leadId: string): Promise<{ id: string }> {
  return deps.db.sql.begin(async (tx) => {
    const now = deps.clock.now();
    // In the order a send to the lead takes its rows (send-record.ts: the message, the lead, the enrollment), so
    // the two wait for each other instead of deadlocking: its address and subjects off the messages kept for the
    // limits (its unsent ones cancelled), then the lead, then out of every sequence.
    await eraseLeadFromMessages(tx, actor.workspaceId, leadId, now);
    if (!(await findLead(tx, actor.workspaceId, leadId, { lock: 'update' }))) throw leadNotFound(leadId);
    await stopEnrollments(tx, actor.workspaceId, { leadId }, { status: 'stopped', reason: 'lead_deleted', now });
    const row = await deleteLeadRow(tx, actor.workspaceId, leadId);
    if (!row) throw leadNotFound(leadId);
    await suppress(tx, actor.workspaceId, row.email, 'deleted', now);
    // The event names the lead only: its personal data is what was just erased.
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'lead.deleted', { id: row.id });
    return { id: row.id };
  });
}

export async function handle(input: DeleteLeadInput, ctx: HandlerContext): Promise<DeleteLeadOutput> {
  const { id } = await deleteLead(ctx.deps, actorFrom(ctx), input.path.lead_id);
  return { status: 200, body: { id, deleted: true } };
}
