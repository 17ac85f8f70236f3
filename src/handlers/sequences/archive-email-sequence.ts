import type { ArchiveEmailSequenceInput, ArchiveEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';

/** Archives a sequence in any status; its enrollments stop with their unsent messages. */
export async function archiveEmailSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (current.status === 'archived') return current;
    const now = deps.clock.now();
    const archived = await moveLockedSequence(tx, actor.workspaceId, sequenceId, {
      from: [current.status],
      to: 'archived',
      now,
      approval: current.approval,
    });
    await stopEnrollments(tx, actor.workspaceId, { sequenceId }, { status: 'stopped', reason: 'archived', now });
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'email_sequence.archived',
      sequenceEventData(archived),
    );
    return archived;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(
  input: ArchiveEmailSequenceInput,
  ctx: HandlerContext,
): Promise<ArchiveEmailSequenceOutput> {
  return {
    status: 200,
    body: sequenceBody(await archiveEmailSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)),
  };
}
