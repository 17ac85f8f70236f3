// Launching needs what check-sendable.ts lists and at least one enrollment (launch may enroll in the same
// call). Launching an active sequence again is a no-op 200 that still enrolls what it is given.
import type { LaunchEmailSequenceInput, LaunchEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { checkSendable, notApproved } from './check-sendable.ts';
import {
  enrollInTransaction,
  enrollSource,
  firstStepDue,
  type EnrollmentResult,
  type EnrollRequest,
} from './enroll-in-transaction.ts';
import { kickSender } from './sender-kick.ts';
import { countActiveEnrollments, startWaitingEnrollments } from './sequence-enrollments-data.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';

export interface LaunchResult {
  sequence: SequenceView;
  enrollment: EnrollmentResult | null;
  already_active: boolean;
}

export async function launchEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; enroll?: EnrollRequest },
): Promise<LaunchResult> {
  const source = request.enroll ? enrollSource(request.enroll) : undefined;
  const outcome = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    if (s.status === 'active') {
      const enrollment = source ? await enrollInTransaction(deps, tx, actor.workspaceId, s, source) : null;
      if (enrollment?.counts.enrolled) await kickSender(deps, tx);
      return { row: s, enrollment, already: true };
    }
    if (s.status === 'draft' || s.status === 'pending_approval')
      throw notApproved(deps, s, `Sequence ${s.id} is ${s.status === 'draft' ? 'a draft' : 'waiting for approval'}.`);
    if (s.status === 'paused')
      throw new ApiError(
        'sequence_state_conflict',
        `Sequence ${s.id} was launched and is paused${s.pause_reason ? ` (${s.pause_reason})` : ''}: call resume_email_sequence.`,
      );
    if (s.status !== 'approved')
      throw new ApiError('sequence_state_conflict', `A ${s.status} sequence cannot be launched.`);
    await checkSendable(deps, tx, s);
    const now = deps.clock.now();
    const active = { ...s, status: 'active' as const };
    const enrollment = source ? await enrollInTransaction(deps, tx, actor.workspaceId, active, source) : null;
    if ((await countActiveEnrollments(tx, actor.workspaceId, s.id)) === 0) {
      throw new ApiError(
        'no_enrollments',
        `Sequence ${s.id} has no leads to send to${
          enrollment
            ? ` (all ${enrollment.counts.skipped} were skipped: ${Object.entries(enrollment.counts.skipped_by_reason)
                .map(([r, n]) => `${n} ${r}`)
                .join(', ')})`
            : ''
        }. Enroll leads with enroll_leads_in_sequence, or pass enroll to launch_email_sequence.`,
      );
    }
    await startWaitingEnrollments(tx, actor.workspaceId, s.id, firstStepDue(active, now), now);
    const row = await moveLockedSequence(tx, actor.workspaceId, s.id, {
      from: ['approved'],
      to: 'active',
      now,
      launched: true,
    });
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'email_sequence.launched',
      sequenceEventData(row),
    );
    await kickSender(deps, tx);
    return { row, enrollment, already: false };
  });
  deps.resourceWatch.changed(outcome.row.id);
  deps.jobs.wake(dispatchSequenceMessagesJob);
  return {
    sequence: await viewSequence(deps, actor.workspaceId, outcome.row),
    enrollment: outcome.enrollment,
    already_active: outcome.already,
  };
}

export async function handle(input: LaunchEmailSequenceInput, ctx: HandlerContext): Promise<LaunchEmailSequenceOutput> {
  const result = await launchEmailSequence(ctx.deps, actorFrom(ctx), {
    sequenceId: input.path.sequence_id,
    enroll: input.body?.enroll,
  });
  return {
    status: 200,
    body: {
      sequence: sequenceBody(result.sequence),
      enrollment: result.enrollment,
      already_active: result.already_active,
    },
  };
}
