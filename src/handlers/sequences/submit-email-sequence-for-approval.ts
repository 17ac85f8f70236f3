import type {
  SubmitEmailSequenceForApprovalInput,
  SubmitEmailSequenceForApprovalOutput,
} from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { sequenceChecks } from './sequence-checks.ts';
import { decide } from './sequence-decision.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { findWorkspaceSettings } from './sequences-data.ts';
import { approvalUrl, sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';

/**
 * Puts a draft (or a paused sequence edited since its approval) before a person, once no blocking check
 * fails; where the workspace does not require a person, an admin's submission approves it at once.
 */
export async function submitEmailSequenceForApproval(
  deps: Deps,
  actor: Actor,
  sequenceId: string,
): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (current.status === 'pending_approval') return current;
    const approvedNow = current.approval?.decision === 'approved' && current.approval.revision === current.revision;
    if (current.status !== 'draft' && !(current.status === 'paused' && !approvedNow)) {
      throw new ApiError(
        'sequence_state_conflict',
        `A ${current.status} sequence cannot be submitted for approval${current.status === 'approved' || approvedNow ? ': it is already approved' : ''}.`,
      );
    }
    const blocking = (await sequenceChecks(deps, tx, actor.workspaceId, current)).filter(
      (c) => c.severity === 'blocking',
    );
    if (blocking.length) {
      throw new ApiError('sequence_blocked', `Fix these first: ${blocking.map((c) => c.message).join(' ')}`, {
        errors: blocking.map((c) => ({ code: c.code, message: c.message })),
      });
    }
    const now = deps.clock.now();
    const settings = await findWorkspaceSettings(tx, actor.workspaceId);
    if (!settings.require_human_approval) {
      requireAdmin(actor);
      return decide(deps, tx, actor, current, 'approved', null);
    }
    const pending = await moveLockedSequence(tx, actor.workspaceId, sequenceId, {
      from: [current.status],
      to: 'pending_approval',
      now,
      approval: current.approval,
    });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.submitted', {
      ...sequenceEventData(pending),
      approval_url: approvalUrl(deps.config.publicBaseUrl, sequenceId),
    });
    return pending;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(
  input: SubmitEmailSequenceForApprovalInput,
  ctx: HandlerContext,
): Promise<SubmitEmailSequenceForApprovalOutput> {
  return {
    status: 200,
    body: sequenceBody(await submitEmailSequenceForApproval(ctx.deps, actorFrom(ctx), input.path.sequence_id)),
  };
}
