import type { UpdateEmailSequenceInput, UpdateEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { sequenceFields, type SequenceInput } from './sequence-input.ts';
import { requireSequence, viewSequence } from './sequence-record.ts';
import { updateSequenceFields } from './sequences-data.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';

/** The revision in `If-Match`: a bare number or an ETag such as `"3"` or `W/"3"`. */
export function revisionFromIfMatch(header: string): number {
  return Number(header.replace(/^W\//, '').replace(/"/g, ''));
}

/** Edits a draft or paused sequence, on the revision the caller read. */
export async function updateEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; ifMatch: number; patch: SequenceInput },
): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    if (current.revision !== request.ifMatch) {
      throw new ApiError(
        'revision_mismatch',
        `The sequence is at revision ${current.revision}, not ${request.ifMatch}: get it again and redo the change on it.`,
      );
    }
    if (current.status !== 'draft' && current.status !== 'paused') {
      throw new ApiError(
        'sequence_not_editable',
        `A ${current.status} sequence cannot be edited: only draft and paused ones can${current.status === 'active' ? ' (pause it first)' : current.status === 'pending_approval' || current.status === 'approved' ? ' (reject it back to draft first, or pause it after launch)' : ''}.`,
      );
    }
    // An empty patch changes nothing, so it keeps the revision and any approval.
    if (Object.keys(request.patch).length === 0) return current;
    const fields = await sequenceFields(tx, actor.workspaceId, request.patch, current);
    const updated = await updateSequenceFields(tx, actor.workspaceId, current.id, fields, deps.clock.now());
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.updated', {
      ...sequenceEventData(updated),
      approval_voided: current.approval?.decision === 'approved',
    });
    return updated;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(input: UpdateEmailSequenceInput, ctx: HandlerContext): Promise<UpdateEmailSequenceOutput> {
  const view = await updateEmailSequence(ctx.deps, actorFrom(ctx), {
    sequenceId: input.path.sequence_id,
    ifMatch: revisionFromIfMatch(input.headers['if-match']),
    patch: input.body,
  });
  return { status: 200, body: sequenceBody(view), headers: { ETag: `"${view.row.revision}"` } };
}
