// Sequences, enrollments and messages as the contract shows them.
import type { EnrollmentRow } from './sequence-enrollments-data.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import type { SequenceRow, SequenceStatsRow } from './sequences-data.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const emptyStats: SequenceStatsRow = {
  enrolled: 0,
  scheduled: 0,
  sent: 0,
  failed: 0,
  bounced: 0,
  unsubscribed: 0,
  uncertain: 0,
  replied: 0,
  auto_replied: 0,
  bounced_late: 0,
};

/** The admin-panel page where a person reviews and approves or rejects the sequence. */
export const approvalUrl = (publicBaseUrl: string, sequenceId: string) =>
  `${publicBaseUrl.replace(/\/$/, '')}/admin/approvals?sequence=${sequenceId}`;

export interface SequenceView {
  row: SequenceRow;
  stats: SequenceStatsRow;
  approvalUrl: string;
}

export const sequenceBody = ({ row: s, stats, approvalUrl: url }: SequenceView) => ({
  id: s.id,
  name: s.name,
  status: s.status,
  revision: s.revision,
  sender_connector_id: s.sender_connector_id,
  sender_connector_ids: [...s.sender_connector_ids],
  schedule: { ...s.schedule } as Record<string, unknown>,
  daily_limit: s.daily_limit,
  stop_on_reply: s.stop_on_reply,
  stop_on_auto_reply: s.stop_on_auto_reply,
  auto_reply_pause_days: s.auto_reply_pause_days,
  stop_for_company: s.stop_for_company,
  tracking: { ...s.tracking },
  auto_select_winner: s.auto_select_winner ? { ...s.auto_select_winner } : null,
  variant_winners: s.variant_winners.map((decision) => ({ ...decision })),
  steps: s.steps,
  approval: s.approval ? ({ ...s.approval } as Record<string, unknown>) : null,
  approval_url: s.status === 'pending_approval' ? url : null,
  pause_reason: s.pause_reason,
  stats: { ...stats } as Record<string, unknown>,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
  launched_at: iso(s.launched_at),
});

/** What events carry: the sequence without its step texts (they can be long; get_email_sequence has them). */
export const sequenceEventData = (s: SequenceRow) => ({
  id: s.id,
  name: s.name,
  status: s.status,
  revision: s.revision,
  pause_reason: s.pause_reason,
});

export const enrollmentBody = (e: EnrollmentRow) => ({
  id: e.id,
  sequence_id: e.sequence_id,
  lead_id: e.lead_id,
  email: e.email,
  connector_id: e.connector_id,
  status: e.status,
  next_step: e.next_step,
  next_due_at: iso(e.next_due_at),
  stop_reason: e.stop_reason,
  enrolled_at: e.enrolled_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

/** `claimed` is the sender's own bookkeeping: outside it is still scheduled. */
export const messageBody = (m: MessageRow) => ({
  id: m.id,
  sequence_id: m.sequence_id,
  enrollment_id: m.enrollment_id,
  lead_id: m.lead_id,
  step: m.step,
  variant: m.variant,
  connector_id: m.connector_id,
  mode: m.mode,
  to: m.to_email,
  subject: m.subject,
  status: m.status === 'claimed' ? ('scheduled' as const) : m.status,
  scheduled_at: m.scheduled_at.toISOString(),
  sent_at: iso(m.sent_at),
  attempts: m.attempts,
  provider_message_id: m.provider_message_id,
  message_id: m.message_id_header,
  thread_id: m.thread_id,
  reply_state: m.reply_state,
  opened_at: iso(m.opened_at),
  clicked_at: iso(m.clicked_at),
  error_code: m.error_code,
  error_message: m.error_message,
  created_at: m.created_at.toISOString(),
});

export const messageEventData = (m: MessageRow) => ({
  id: m.id,
  sequence_id: m.sequence_id,
  lead_id: m.lead_id,
  step: m.step,
  status: m.status,
  error_code: m.error_code,
});
