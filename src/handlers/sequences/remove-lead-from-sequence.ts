import type { RemoveLeadFromSequenceInput, RemoveLeadFromSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { findEnrollmentByLead, stopEnrollments, type EnrollmentRow } from './sequence-enrollments-data.ts';
import { requireSequence } from './sequence-record.ts';
import { enrollmentBody } from './wire.ts';

/** Stops one lead's enrollment, its unsent messages cancelled; an enrollment already ended is answered as it is. */
export async function removeLeadFromSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; leadId: string },
): Promise<EnrollmentRow> {
  return deps.db.sql.begin(async (tx) => {
    await requireSequence(deps, tx, actor.workspaceId, request.sequenceId);
    const current = await findEnrollmentByLead(tx, actor.workspaceId, request.sequenceId, request.leadId);
    if (!current) throw new ApiError('not_found', `Lead ${request.leadId} is not in sequence ${request.sequenceId}.`);
    if (current.status !== 'active') return current;
    const [removed] = await stopEnrollments(
      tx,
      actor.workspaceId,
      { enrollmentId: current.id },
      { status: 'removed', reason: 'removed', now: deps.clock.now() },
    );
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.lead_removed', {
      id: request.sequenceId,
      lead_id: request.leadId,
    });
    return removed ?? current;
  });
}

export async function handle(
  input: RemoveLeadFromSequenceInput,
  ctx: HandlerContext,
): Promise<RemoveLeadFromSequenceOutput> {
  return {
    status: 200,
    body: enrollmentBody(
      await removeLeadFromSequence(ctx.deps, actorFrom(ctx), {
        sequenceId: input.path.sequence_id,
        leadId: input.path.lead_id,
      }),
    ),
  };
}
