// What launching and resuming both require: the approval of the current revision, at least one mailbox that
// can send (each one able to read replies when they stop the sequence) and the postal address every footer carries. Each
// refusal is a 409 with a code and what to do.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import { notConnected } from '../connectors/tokens.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { findWorkspaceSettings, type SequenceRow } from './sequences-data.ts';
import { approvalUrl } from './wire.ts';
import { mailboxProblem, repliesNotSeen, repliesUnseen, sequenceMailboxes } from './sequence-checks.ts';

export function notApproved(deps: Deps, s: SequenceRow, why: string): ApiError {
  const url = approvalUrl(deps.config.publicBaseUrl, s.id);
  const next =
    s.status === 'pending_approval'
      ? `A person must approve it: give them ${url}, then call get_email_sequence with wait_seconds 50 until it is approved.`
      : `Preview it (preview_email_sequence), submit it (submit_email_sequence_for_approval) and have a person approve it at ${url}.`;
  return new ApiError('sequence_not_approved', `${why} ${next}`, { extensions: { approval_url: url } });
}

function cannotSend(connector: ConnectorRow): ApiError {
  if (connector.status === 'expired') {
    return new ApiError(
      'connector_expired',
      `The sender's Gmail connection ${connector.id} expired. Call start_connector_oauth with provider "gmail" and reconnect_connector_id "${connector.id}", show the link to the human, then launch again.`,
      {
        errors: [
          {
            field: 'sender_connector_ids',
            code: 'connector_expired',
            message: 'Reconnect it with start_connector_oauth.',
          },
        ],
      },
    );
  }
  if (connector.status !== 'connected') return notConnected(connector);
  const problem = mailboxProblem(connector);
  return new ApiError('sequence_blocked', problem?.message ?? `Mailbox ${connector.id} cannot send.`, {
    errors: [
      { field: 'sender_connector_ids', code: problem?.code ?? 'mailbox_paused', message: 'No mailbox can send.' },
    ],
  });
}

/** Refuses unless the current revision is approved and the sender and the footer can go out now. */
export async function checkSendable(deps: Deps, tx: Queryable, s: SequenceRow): Promise<void> {
  const approval = s.approval?.decision === 'approved' ? s.approval : null;
  if (!approval) throw notApproved(deps, s, `Sequence ${s.id} is not approved.`);
  if (approval.revision !== s.revision) {
    throw new ApiError(
      'revision_changed',
      `The approval was for revision ${approval.revision}; the sequence is at revision ${s.revision}. Submit it for approval again.`,
      { extensions: { approval_url: approvalUrl(deps.config.publicBaseUrl, s.id) } },
    );
  }
  const mailboxes = await sequenceMailboxes(tx, s.workspace_id, s);
  if (mailboxes.length === 0)
    throw new ApiError(
      'connector_not_connected',
      'The sequence has no sender: connect Gmail with start_connector_oauth and set sender_connector_ids.',
    );
  // One mailbox able to send is enough (the others' enrollments move to it: mailbox-pinning.ts); with none,
  // the first one's problem is the answer.
  if (!mailboxes.some((c) => !mailboxProblem(c))) throw cannotSend(mailboxes[0]);
  for (const connector of mailboxes)
    if (repliesUnseen(s, connector))
      throw new ApiError('sequence_blocked', repliesNotSeen(connector.id), {
        errors: [{ field: 'stop_on_reply', code: 'replies_not_seen', message: 'The sender cannot read replies.' }],
      });
  if (!(await findWorkspaceSettings(tx, s.workspace_id)).postal_address) {
    throw new ApiError(
      'sequence_blocked',
      "Every message's footer must carry the sender's postal address: set it with update_workspace_settings, then launch again.",
    );
  }
}
