// Launch, pause and resume. Launching needs the approval of the current revision, a connected sender, the
// postal address and at least one enrollment; each refusal is a 409 with a code and what to do. Repeating
// a launch or a pause that already happened is a no-op 200.
import { findConnector } from '../connectors/connectors-data.ts';
import { countActiveEnrollments, startWaitingEnrollments } from './sequence-enrollments-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { findWorkspaceSettings, setSequenceStatus, type SequenceRow } from './sequences-data.ts';
import type { Deps } from '../../deps.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { notConnected } from '../connectors/tokens.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { enrollInTransaction, enrollSource, firstDue, type EnrollmentResult, type EnrollRequest } from './enroll.ts';
import { kickSender } from './sender-kick.ts';
import { requireSequence, viewSequence } from './sequences-logic.ts';
import { approvalUrl, sequenceEventData, type SequenceView } from './wire.ts';

function notApproved(deps: Deps, s: SequenceRow, why: string): ApiError {
  const url = approvalUrl(deps.config.publicBaseUrl, s.id);
  const next = s.status === 'pending_approval'
    ? `A person must approve it: give them ${url}, then call get_email_sequence with wait_seconds 50 until it is approved.`
    : `Preview it (preview_email_sequence), submit it (submit_email_sequence_for_approval) and have a person approve it at ${url}.`;
  return new ApiError('sequence_not_approved', `${why} ${next}`, { extensions: { approval_url: url } });
}

/** Refuses unless the current revision is approved and the sender and the footer can go out now. */
async function checkSendable(deps: Deps, tx: Queryable, s: SequenceRow): Promise<void> {
  const approval = s.approval?.decision === 'approved' ? s.approval : null;
  if (!approval) throw notApproved(deps, s, `Sequence ${s.id} is not approved.`);
  if (approval.revision !== s.revision) {
    throw new ApiError('revision_changed', `The approval was for revision ${approval.revision}; the sequence is at revision ${s.revision}. Submit it for approval again.`, { extensions: { approval_url: approvalUrl(deps.config.publicBaseUrl, s.id) } });
  }
  const connector = s.sender_connector_id ? await findConnector(tx, s.workspace_id, s.sender_connector_id) : undefined;
  if (!connector) throw new ApiError('connector_not_connected', 'The sequence has no sender: connect Gmail with start_connector_oauth and set sender_connector_id.');
  if (connector.status === 'expired') {
    throw new ApiError('connector_expired', `The sender's Gmail connection ${connector.id} expired. Call start_connector_oauth with provider "gmail" and reconnect_connector_id "${connector.id}", show the link to the human, then launch again.`, {
      errors: [{ field: 'sender_connector_id', code: 'connector_expired', message: 'Reconnect it with start_connector_oauth.' }],
    });
  }
  if (connector.status !== 'connected') throw notConnected(connector);
  if (!(await findWorkspaceSettings(tx, s.workspace_id)).postal_address) {
    throw new ApiError('sequence_blocked', "Every message's footer must carry the sender's postal address: set it with update_workspace_settings, then launch again.");
  }
}

export interface LaunchResult {
  sequence: SequenceView;
  enrollment: EnrollmentResult | null;
  already_active: boolean;
}

export async function launchSequence(deps: Deps, actor: Actor, request: { sequenceId: string; enroll?: EnrollRequest }): Promise<LaunchResult> {
  const source = request.enroll ? enrollSource(request.enroll) : undefined;
  const outcome = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    if (s.status === 'active') {
      const enrollment = source ? await enrollInTransaction(deps, tx, actor.workspaceId, s, source) : null;
      if (enrollment?.counts.enrolled) await kickSender(deps, tx);
      return { row: s, enrollment, already: true };
    }
    if (s.status === 'draft' || s.status === 'pending_approval') throw notApproved(deps, s, `Sequence ${s.id} is ${s.status === 'draft' ? 'a draft' : 'waiting for approval'}.`);
    if (s.status === 'paused') throw new ApiError('sequence_state_conflict', `Sequence ${s.id} was launched and is paused${s.pause_reason ? ` (${s.pause_reason})` : ''}: call resume_email_sequence.`);
    if (s.status !== 'approved') throw new ApiError('sequence_state_conflict', `A ${s.status} sequence cannot be launched.`);
    await checkSendable(deps, tx, s);
    const now = deps.clock.now();
    const active = { ...s, status: 'active' as const };
    const enrollment = source ? await enrollInTransaction(deps, tx, actor.workspaceId, active, source) : null;
    if ((await countActiveEnrollments(tx, actor.workspaceId, s.id)) === 0) {
      throw new ApiError('no_enrollments', `Sequence ${s.id} has no leads to send to${enrollment ? ` (all ${enrollment.counts.skipped} were skipped: ${Object.entries(enrollment.counts.skipped_by_reason).map(([r, n]) => `${n} ${r}`).join(', ')})` : ''}. Enroll leads with enroll_leads_in_sequence, or pass enroll to launch_email_sequence.`);
    }
    await startWaitingEnrollments(tx, actor.workspaceId, s.id, firstDue(active, now) as Date, now);
    const row = (await setSequenceStatus(tx, actor.workspaceId, s.id, { from: ['approved'], to: 'active', now, launched: true })) as SequenceRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.launched', sequenceEventData(row));
    await kickSender(deps, tx);
    return { row, enrollment, already: false };
  });
  deps.resourceWatch.changed(outcome.row.id);
  deps.jobs.wake(dispatchSequenceMessagesJob);
  return { sequence: await viewSequence(deps, actor.workspaceId, outcome.row), enrollment: outcome.enrollment, already_active: outcome.already };
}

export async function pauseSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (s.status === 'paused') return s;
    if (s.status !== 'active') throw new ApiError('sequence_state_conflict', `Only an active sequence can be paused; this one is ${s.status}.`);
    const paused = (await setSequenceStatus(tx, actor.workspaceId, sequenceId, { from: ['active'], to: 'paused', now: deps.clock.now(), pauseReason: 'paused_by_user' })) as SequenceRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.paused', sequenceEventData(paused));
    return paused;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function resumeSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const s = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (s.status === 'active') return s;
    if (s.status !== 'paused') throw new ApiError('sequence_state_conflict', `Only a paused sequence can be resumed; this one is ${s.status}${s.status === 'approved' ? ' (launch it)' : ''}.`);
    await checkSendable(deps, tx, s);
    const resumed = (await setSequenceStatus(tx, actor.workspaceId, sequenceId, { from: ['paused'], to: 'active', now: deps.clock.now(), launched: true })) as SequenceRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.resumed', sequenceEventData(resumed));
    await kickSender(deps, tx);
    return resumed;
  });
  deps.resourceWatch.changed(row.id);
  deps.jobs.wake(dispatchSequenceMessagesJob);
  return viewSequence(deps, actor.workspaceId, row);
}
