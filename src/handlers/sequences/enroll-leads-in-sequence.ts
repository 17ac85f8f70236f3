import type { EnrollLeadsInSequenceInput, EnrollLeadsInSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import {
  enrollInTransaction,
  enrollSource,
  type EnrollmentResult,
  type EnrollRequest,
} from './enroll-in-transaction.ts';
import { kickSender } from './sender-kick.ts';
import { requireSequence } from './sequence-record.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';

/** Enrolls leads by ids, import or filter; an active sequence starts sending to them at once. */
export async function enrollLeadsInSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; enroll: EnrollRequest },
): Promise<EnrollmentResult> {
  const source = enrollSource(request.enroll);
  const { result, active } = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    const r = await enrollInTransaction(deps, tx, actor.workspaceId, s, source);
    if (r.counts.enrolled)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.leads_enrolled', {
        id: s.id,
        enrolled: r.counts.enrolled,
        skipped: r.counts.skipped,
      });
    if (s.status === 'active' && r.counts.enrolled) await kickSender(deps, tx);
    return { result: r, active: s.status === 'active' };
  });
  if (active) deps.jobs.wake(dispatchSequenceMessagesJob);
  return result;
}

export async function handle(
  input: EnrollLeadsInSequenceInput,
  ctx: HandlerContext,
): Promise<EnrollLeadsInSequenceOutput> {
  return {
    status: 200,
    body: await enrollLeadsInSequence(ctx.deps, actorFrom(ctx), {
      sequenceId: input.path.sequence_id,
      enroll: input.body,
    }),
  };
}
