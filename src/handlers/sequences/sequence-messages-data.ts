// The messages of sequences (migration 0013): one row per (enrollment, step), ever. The sender moves a row
// scheduled -> claimed (reserved against the limits, with a claim token) -> sending (committed just before
// the provider call) -> sent / failed, or back to scheduled after a refusal that sent nothing. Every move
// is conditional on the row's status and claim token, so a sender that was presumed dead and replaced
// cannot write over its replacement. The cross-workspace functions serve the sender and its sweeps and
// say so in their names.
// The sender's queries are in sequence-claims-data.ts and sequence-sends-data.ts.
import { query, type Queryable } from '../../db/queryable.ts';

export type MessageStatus = 'scheduled' | 'claimed' | 'sending' | 'sent' | 'failed' | 'cancelled' | 'uncertain';

export interface MessageRow {
  id: string;
  workspace_id: string;
  sequence_id: string;
  enrollment_id: string;
  lead_id: string | null;
  step: number;
  /** The step's variant it is written from (1-based), null for a step without variants (migration 0021). */
  variant: number | null;
  connector_id: string;
  mode: 'live' | 'sandbox';
  to_email: string | null;
  subject: string | null;
  status: MessageStatus;
  scheduled_at: Date;
  claim_token: string | null;
  claimed_at: Date | null;
  sent_at: Date | null;
  attempts: number;
  provider_message_id: string | null;
  message_id_header: string | null;
  /** The provider's thread, from the send's answer. */
  thread_id: string | null;
  /** What came back to the message (a reply, an auto-reply, a late bounce, an unsubscribe request). */
  reply_state: 'replied' | 'auto_replied' | 'bounced' | 'unsubscribe_request' | null;
  replied_at: Date | null;
  /** The first human open and click of a tracked message (tracking-hit.ts). */
  opened_at: Date | null;
  clicked_at: Date | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
}

export const columns = (q: Queryable) => query(q)`
  id, workspace_id, sequence_id, enrollment_id, lead_id, step, variant, connector_id, mode, to_email, subject, status, scheduled_at,
  claim_token, claimed_at, sent_at, attempts, provider_message_id, message_id_header, thread_id, reply_state, replied_at,
  opened_at, clicked_at, error_code, error_message, created_at`;

export interface MessageFilter {
  sequenceId?: string;
  leadId?: string;
  statuses: MessageStatus[];
  before?: { at: string; id: string };
  limit: number;
}

export function listMessages(q: Queryable, workspaceId: string, filter: MessageFilter): Promise<MessageRow[]> {
  const sql = query(q);
  return sql<MessageRow[]>`
    select ${columns(q)} from sequence_messages
    where workspace_id = ${workspaceId}
      ${filter.sequenceId ? sql`and sequence_id = ${filter.sequenceId}` : sql``}
      ${filter.leadId ? sql`and lead_id = ${filter.leadId}` : sql``}
      ${filter.statuses.length ? sql`and status = any(${sql.array(filter.statuses)}::text[])` : sql``}
      ${filter.before ? sql`and (created_at, id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** Erases the personal data a deleted lead left on its messages (the rows stay: they count against limits). */
export async function eraseLeadFromMessages(
  q: Queryable,
  workspaceId: string,
  leadId: string,
  now: Date,
): Promise<void> {
  await query(q)`
    update sequence_messages set to_email = null, subject = null, updated_at = ${now},
      status = case when status in ('scheduled', 'claimed') then 'cancelled' else status end,
      error_code = case when status in ('scheduled', 'claimed') then 'lead_deleted' else error_code end
    where workspace_id = ${workspaceId} and lead_id = ${leadId}`;
}
