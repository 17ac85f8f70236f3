import type { ResumeEmailSequenceInput, ResumeEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { checkSendable } from './check-sendable.ts';
import { kickSender } from './sender-kick.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';

/** Sends again from a paused sequence, on the checks a launch makes; resuming an active one is a no-op 200. */
export async function resumeEmailSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (s.status === 'active') return s;
    if (s.status !== 'paused')
      throw new ApiError(
        'sequence_state_conflict',
        `Only a paused sequence can be resumed; this one is ${s.status}${s.status === 'approved' ? ' (launch it)' : ''}.`,
      );
    await checkSendable(deps, tx, s);
    const resumed = await moveLockedSequence(tx, actor.workspaceId, sequenceId, {
      from: ['paused'],
      to: 'active',
      now: deps.clock.now(),
      launched: true,
    });
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'email_sequence.resumed',
      sequenceEventData(resumed),
    );
    await kickSender(deps, tx);
    return resumed;
  });
  deps.resourceWatch.changed(row.id);
  deps.jobs.wake(dispatchSequenceMessagesJob);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(input: ResumeEmailSequenceInput, ctx: HandlerContext): Promise<ResumeEmailSequenceOutput> {
  return {
    status: 200,
    body: sequenceBody(await resumeEmailSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)),
  };
}
