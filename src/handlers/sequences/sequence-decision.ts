// The human gate. While the workspace requires human approval (the default), only a person signed in with
// their own login may approve or reject, never an API key and never a tool call (whatever credential the
// agent holds), and only the revision they reviewed. An agent submits and hands the approval_url to its
// human; get_email_sequence with wait_seconds tells it the outcome.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { isPerson, requireAdmin, type Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { moveLockedSequence, requireSequence, viewSequence } from './sequence-record.ts';
import { findWorkspaceSettings, type SequenceApproval, type SequenceRow } from './sequences-data.ts';
import { approvalUrl, sequenceEventData, type SequenceView } from './wire.ts';

function humanRequired(deps: Deps, sequenceId: string): ApiError {
  const url = approvalUrl(deps.config.publicBaseUrl, sequenceId);
  return new ApiError(
    'approval_requires_human',
    `This workspace requires a person to approve sequences. Agents and API keys cannot approve or reject: give this link to your human, who reviews the rendered messages and decides there: ${url}. Then call get_email_sequence with wait_seconds 50 until the status changes.`,
    { extensions: { approval_url: url } },
  );
}

const decidedBy = (actor: Actor) => actor.userId ?? actor.keyId ?? 'operator';

async function checkDecider(deps: Deps, actor: Actor, sequenceId: string): Promise<void> {
  const settings = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
  if (settings.require_human_approval && !isPerson(actor)) throw humanRequired(deps, sequenceId);
  requireAdmin(actor);
}

/** Records a decision on the locked sequence `current`, within `tx`. */
export async function decide(
  deps: Deps,
  tx: Queryable,
  actor: Actor,
  current: SequenceRow,
  decision: 'approved' | 'rejected',
  note: string | null,
): Promise<SequenceRow> {
  const now = deps.clock.now();
  const approval: SequenceApproval = {
    decision,
    revision: current.revision,
    by: decidedBy(actor),
    at: now.toISOString(),
    note,
  };
  // An approved sequence that had been launched (paused, edited, approved again) goes back to paused: resume sends again.
  const to =
    decision === 'rejected' ? (current.launched_at ? 'paused' : 'draft') : current.launched_at ? 'paused' : 'approved';
  const row = await moveLockedSequence(tx, actor.workspaceId, current.id, {
    from: [current.status],
    to,
    now,
    approval,
    pauseReason: to === 'paused' ? (current.pause_reason ?? 'paused_by_user') : null,
  });
  await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), `email_sequence.${decision}`, {
    ...sequenceEventData(row),
    approval,
  });
  return row;
}

/** A person's decision on a sequence pending approval; `revision` is the one they reviewed (for approval). */
export async function decidePending(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; decision: 'approved' | 'rejected'; revision?: number; note: string | null },
): Promise<SequenceView> {
  // 404 for a sequence outside the workspace before the gate says anything about it.
  await requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  await checkDecider(deps, actor, request.sequenceId);
  const verb = request.decision === 'approved' ? 'approved' : 'rejected';
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    if (current.status !== 'pending_approval') {
      throw new ApiError(
        'sequence_state_conflict',
        `Only a sequence pending approval can be ${verb}; this one is ${current.status}.`,
      );
    }
    if (request.revision !== undefined && current.revision !== request.revision) {
      throw new ApiError(
        'revision_changed',
        `You reviewed revision ${request.revision}, but the sequence is now at revision ${current.revision}: review the current one and approve that.`,
      );
    }
    return decide(deps, tx, actor, current, request.decision, request.note);
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}
