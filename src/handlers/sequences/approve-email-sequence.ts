import type { ApproveEmailSequenceInput, ApproveEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { decidePending } from './sequence-decision.ts';
import { sequenceBody, type SequenceView } from './wire.ts';

/** A person approves the revision they reviewed (see sequence-decision.ts for who may). */
export function approveEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; revision: number; note?: string },
): Promise<SequenceView> {
  return decidePending(deps, actor, {
    sequenceId: request.sequenceId,
    decision: 'approved',
    revision: request.revision,
    note: request.note?.trim() || null,
  });
}

export async function handle(
  input: ApproveEmailSequenceInput,
  ctx: HandlerContext,
): Promise<ApproveEmailSequenceOutput> {
  const view = await approveEmailSequence(ctx.deps, actorFrom(ctx), {
    sequenceId: input.path.sequence_id,
    revision: input.body.revision,
    note: input.body.note,
  });
  return { status: 200, body: sequenceBody(view) };
}
