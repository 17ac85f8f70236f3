// Reads over what came back (inbound_messages, recorded by the mailbox sync) and what we sent
// (sequence_messages), for the reply inbox and a lead's conversation. Tenant reads: the workspace id comes
// second. The sync's own writes live beside it in inbound-data.ts.
import { query, type Queryable } from '../../db/queryable.ts';

export type ReplyClassification = 'reply' | 'auto_reply' | 'bounce' | 'unsubscribe_request';

export interface InboundRow {
  id: string;
  connector_id: string;
  /** Whether the connector that read it may show the lead's words (read_reply_text), as granted now. */
  provider: string;
  scopes_granted: string[];
  thread_id: string | null;
  classification: ReplyClassification;
  bounce_type: 'permanent' | 'transient' | null;
  message_id_header: string | null;
  subject: string | null;
  text_body: string | null;
  sequence_message_id: string | null;
  sequence_id: string | null;
  lead_id: string | null;
  effect: string | null;
  received_at: Date;
}

const inboundColumns = (q: Queryable) => query(q)`
  i.id, i.connector_id, c.provider, c.scopes_granted, i.thread_id, i.classification, i.bounce_type, i.message_id_header,
  i.subject, i.text_body, i.sequence_message_id, i.sequence_id, i.lead_id, i.effect, i.received_at`;

export interface InboundFilter {
  sequenceId?: string;
  leadId?: string;
  classifications: ReplyClassification[];
  since?: string;
  before?: { at: string; id: string };
  limit: number;
}

/** The workspace's inbound messages but the ignored ones, newest first by when they arrived. */
export function listInbound(q: Queryable, workspaceId: string, filter: InboundFilter): Promise<InboundRow[]> {
  const sql = query(q);
  return sql<InboundRow[]>`
    select ${inboundColumns(q)} from inbound_messages i join connectors c on c.id = i.connector_id
    where i.workspace_id = ${workspaceId} and i.classification <> 'ignored'
      ${filter.sequenceId ? sql`and i.sequence_id = ${filter.sequenceId}` : sql``}
      ${filter.leadId ? sql`and i.lead_id = ${filter.leadId}` : sql``}
      ${filter.classifications.length ? sql`and i.classification = any(${sql.array(filter.classifications)}::text[])` : sql``}
      ${filter.since ? sql`and i.received_at > ${filter.since}::timestamptz` : sql``}
      ${filter.before ? sql`and (i.received_at, i.id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by i.received_at desc, i.id desc
    limit ${filter.limit}`;
}

/** A lead's inbound messages, oldest first. */
export function leadInbound(q: Queryable, workspaceId: string, leadId: string): Promise<InboundRow[]> {
  return query(q)<InboundRow[]>`
    select ${inboundColumns(q)} from inbound_messages i join connectors c on c.id = i.connector_id
    where i.workspace_id = ${workspaceId} and i.lead_id = ${leadId} and i.classification <> 'ignored'
    order by i.received_at, i.id`;
}

export interface OutboundRow {
  id: string;
  sequence_id: string;
  step: number;
  connector_id: string;
  subject: string | null;
  status: string;
  thread_id: string | null;
  provider_message_id: string | null;
  message_id_header: string | null;
  at: Date;
}

/** The sequence messages that left (or may have) for the lead, oldest first. */
export function leadSentMessages(q: Queryable, workspaceId: string, leadId: string): Promise<OutboundRow[]> {
  return query(q)<OutboundRow[]>`
    select id, sequence_id, step, connector_id, subject, status, thread_id, provider_message_id, message_id_header,
      coalesce(sent_at, updated_at) as at
    from sequence_messages
    where workspace_id = ${workspaceId} and lead_id = ${leadId} and status in ('sending', 'sent', 'uncertain')
    order by coalesce(sent_at, updated_at), id`;
}

export interface EnrollmentRow {
  sequence_id: string;
  status: 'active' | 'completed' | 'stopped' | 'removed';
  stop_reason: string | null;
  next_due_at: Date | null;
}

export function leadEnrollments(q: Queryable, workspaceId: string, leadId: string): Promise<EnrollmentRow[]> {
  return query(q)<EnrollmentRow[]>`
    select sequence_id, status, stop_reason, next_due_at from sequence_enrollments
    where workspace_id = ${workspaceId} and lead_id = ${leadId}
    order by enrolled_at, id`;
}

export interface LeadContact {
  id: string;
  email: string;
  status: string;
  last_replied_at: Date | null;
  /** Not active, or the address is on the workspace's suppression list. */
  suppressed: boolean;
}

export async function findLeadContact(
  q: Queryable,
  workspaceId: string,
  leadId: string,
): Promise<LeadContact | undefined> {
  const [row] = await query(q)<LeadContact[]>`
    select l.id, l.email, l.status, l.last_replied_at,
      (l.status <> 'active' or exists (select 1 from lead_suppressions x where x.workspace_id = l.workspace_id
        and x.email_hash = encode(sha256(convert_to(l.email, 'UTF8')), 'hex'))) as suppressed
    from leads l where l.id = ${leadId} and l.workspace_id = ${workspaceId}`;
  return row;
}
