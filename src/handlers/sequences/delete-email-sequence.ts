import type { DeleteEmailSequenceInput, DeleteEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requireSequence } from './sequence-record.ts';
import { deleteSequence } from './sequences-data.ts';

/** Deletes a draft that never sent; anything else is archived instead. */
export async function deleteEmailSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<{ id: string }> {
  await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (!(await deleteSequence(tx, actor.workspaceId, sequenceId))) {
      throw new ApiError(
        'sequence_not_editable',
        `Only a draft that never sent can be deleted; this one is ${current.status}${current.launched_at ? ' and has been launched' : ''}. Archive it instead.`,
      );
    }
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.deleted', { id: sequenceId });
  });
  return { id: sequenceId };
}

export async function handle(input: DeleteEmailSequenceInput, ctx: HandlerContext): Promise<DeleteEmailSequenceOutput> {
  const { id } = await deleteEmailSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id);
  return { status: 200, body: { id, deleted: true } };
}
