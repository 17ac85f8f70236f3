import type { PauseEmailSequenceInput, PauseEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';

/** Stops an active sequence sending; pausing a paused one again is a no-op 200. */
export async function pauseEmailSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (s.status === 'paused') return s;
    if (s.status !== 'active')
      throw new ApiError('sequence_state_conflict', `Only an active sequence can be paused; this one is ${s.status}.`);
    const paused = await moveLockedSequence(tx, actor.workspaceId, sequenceId, {
      from: ['active'],
      to: 'paused',
      now: deps.clock.now(),
      pauseReason: 'paused_by_user',
    });
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'email_sequence.paused',
      sequenceEventData(paused),
    );
    return paused;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(input: PauseEmailSequenceInput, ctx: HandlerContext): Promise<PauseEmailSequenceOutput> {
  return {
    status: 200,
    body: sequenceBody(await pauseEmailSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)),
  };
}
