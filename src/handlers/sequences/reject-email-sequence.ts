import type { RejectEmailSequenceInput, RejectEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { decidePending } from './sequence-decision.ts';
import { sequenceBody, type SequenceView } from './wire.ts';

/** A person sends a sequence pending approval back, with a note saying why (see sequence-decision.ts for who may). */
export function rejectEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; note: string },
): Promise<SequenceView> {
  return decidePending(deps, actor, {
    sequenceId: request.sequenceId,
    decision: 'rejected',
    note: request.note.trim(),
  });
}

export async function handle(input: RejectEmailSequenceInput, ctx: HandlerContext): Promise<RejectEmailSequenceOutput> {
  return {
    status: 200,
    body: sequenceBody(
      await rejectEmailSequence(ctx.deps, actorFrom(ctx), {
        sequenceId: input.path.sequence_id,
        note: input.body.note,
      }),
    ),
  };
}
