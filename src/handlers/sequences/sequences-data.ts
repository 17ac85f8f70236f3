// Email sequences, their workspace's sending settings, and their enrollments (migration 0013). Tenant
// rows: every function takes the workspace id right after the queryable. State changes are conditional
// updates (`where status = any(from)`), so two callers racing on one sequence cannot both move it.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import type { PageBound } from '../../db/paging.ts';

export type SequenceStatus = 'draft' | 'pending_approval' | 'approved' | 'active' | 'paused' | 'completed' | 'archived';

export interface SequenceSchedule {
  timezone: string;
  days: string[];
  start_hour: number;
  end_hour: number;
}

export interface SequenceStep {
  position: number;
  wait_days: number;
  /** Null for an in_thread step that answers as "Re: <first subject>" (see messageTemplate in variants.ts). */
  subject: string | null;
  body: string;
  /** Sent in the first step's thread (never true for the first step). */
  in_thread: boolean;
  /** The knowledge chunks an agent wrote the step from; absent on steps a person wrote. */
  sources?: { chunk_id: string; url: string }[];
  /** An A/B test: 2-5 versions of the step (subject and body above mirror variant A); absent on a plain step. */
  variants?: SequenceVariant[];
}

export interface SequenceVariant {
  /** 1-based. */
  variant: number;
  label: string;
  /** Null in an in_thread step: "Re: <the subject the enrollment got in step 1>". */
  subject: string | null;
  body: string;
  /** Its share of enrollments among the step's variants. */
  weight: number;
}

export interface AutoSelectWinner {
  metric: 'reply_rate' | 'click_rate';
  min_sends_per_variant: number;
  confidence: number;
}

/** A winner picked for a step: the numbers the test ran on (see select-variant-winners.ts). */
export interface VariantDecision {
  step: number;
  variant: number;
  label: string;
  metric: AutoSelectWinner['metric'];
  p_value: number;
  confidence: number;
  decided_at: string;
  variants: Array<{ variant: number; delivered: number; successes: number; rate: number }>;
}

/** What the messages carry (docs/tracking.md): off unless turned on. */
export interface SequenceTracking {
  opens: boolean;
  clicks: boolean;
}

export interface SequenceApproval {
  decision: 'approved' | 'rejected';
  revision: number;
  by: string;
  at: string;
  note: string | null;
}

export interface SequenceRow {
  id: string;
  workspace_id: string;
  name: string;
  status: SequenceStatus;
  revision: number;
  /** The first of sender_connector_ids (kept for the callers that knew one mailbox). */
  sender_connector_id: string | null;
  /** The mailboxes it sends from; each enrollment is pinned to one (mailbox-pinning.ts). */
  sender_connector_ids: string[];
  schedule: SequenceSchedule;
  daily_limit: number;
  steps: SequenceStep[];
  stop_on_reply: boolean;
  stop_on_auto_reply: boolean;
  auto_reply_pause_days: number;
  stop_for_company: boolean;
  tracking: SequenceTracking;
  auto_select_winner: AutoSelectWinner | null;
  /** At most one per step, appended when a test is decided. */
  variant_winners: VariantDecision[];
  approval: SequenceApproval | null;
  pause_reason: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  launched_at: Date | null;
}

export interface SequenceFields {
  name: string;
  sender_connector_id: string | null;
  sender_connector_ids: string[];
  schedule: SequenceSchedule;
  daily_limit: number;
  steps: SequenceStep[];
  /** What a reply, an auto-reply or a colleague's reply does to the lead's enrollment. */
  stop_on_reply: boolean;
  stop_on_auto_reply: boolean;
  auto_reply_pause_days: number;
  stop_for_company: boolean;
  tracking: SequenceTracking;
  auto_select_winner: AutoSelectWinner | null;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, name, status, revision, sender_connector_id, sender_connector_ids, schedule, daily_limit, steps, approval,
  pause_reason, stop_on_reply, stop_on_auto_reply, auto_reply_pause_days, stop_for_company, tracking, auto_select_winner,
  variant_winners, created_by, created_at, updated_at, launched_at`;

const jsonOrNull = (q: Queryable, value: object | null) => (value === null ? null : query(q).json(value as never));

export async function insertSequence(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: SequenceFields & { createdBy: string | null; now: Date },
): Promise<SequenceRow> {
  const sql = query(q);
  const [row] = await sql<SequenceRow[]>`
    insert into sequences (id, workspace_id, name, status, revision, sender_connector_id, sender_connector_ids, schedule, daily_limit, steps,
                           stop_on_reply, stop_on_auto_reply, auto_reply_pause_days, stop_for_company, tracking, auto_select_winner,
                           created_by, created_at, updated_at)
    values (${ids.make('seq')}, ${workspaceId}, ${fields.name}, 'draft', 1, ${fields.sender_connector_id},
            ${sql.array(fields.sender_connector_ids)}::text[], ${sql.json(fields.schedule as never)},
            ${fields.daily_limit}, ${sql.json(fields.steps as never)}, ${fields.stop_on_reply}, ${fields.stop_on_auto_reply},
            ${fields.auto_reply_pause_days}, ${fields.stop_for_company}, ${sql.json(fields.tracking as never)},
            ${jsonOrNull(q, fields.auto_select_winner)}, ${fields.createdBy},
            ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function findSequence(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean; forShare?: boolean } = {},
): Promise<SequenceRow | undefined> {
  const sql = query(q);
  const lock = options.forUpdate ? sql`for update` : options.forShare ? sql`for share` : sql``;
  const [row] = await sql<SequenceRow[]>`
    select ${columns(q)} from sequences where id = ${id} and workspace_id = ${workspaceId} ${lock}`;
  return row;
}

export function listSequences(
  q: Queryable,
  workspaceId: string,
  page: { statuses: SequenceStatus[]; before?: PageBound; limit: number },
): Promise<SequenceRow[]> {
  const sql = query(q);
  return sql<SequenceRow[]>`
    select ${columns(q)} from sequences
    where workspace_id = ${workspaceId}
      ${page.statuses.length ? sql`and status = any(${sql.array(page.statuses)}::text[])` : sql``}
      ${page.before ? sql`and (created_at, id) < (${page.before.at}::timestamptz, ${page.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** Replaces the editable fields, bumps the revision and voids any approval. */
export async function updateSequenceFields(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: SequenceFields,
  now: Date,
): Promise<SequenceRow> {
  const sql = query(q);
  const [row] = await sql<SequenceRow[]>`
    update sequences set name = ${fields.name}, sender_connector_id = ${fields.sender_connector_id},
      sender_connector_ids = ${sql.array(fields.sender_connector_ids)}::text[], schedule = ${sql.json(fields.schedule as never)},
      daily_limit = ${fields.daily_limit}, steps = ${sql.json(fields.steps as never)}, stop_on_reply = ${fields.stop_on_reply},
      stop_on_auto_reply = ${fields.stop_on_auto_reply}, auto_reply_pause_days = ${fields.auto_reply_pause_days},
      stop_for_company = ${fields.stop_for_company}, tracking = ${sql.json(fields.tracking as never)},
      auto_select_winner = ${jsonOrNull(q, fields.auto_select_winner)}, revision = revision + 1, approval = null, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${columns(q)}`;
  return row;
}

export interface StatusChange {
  from: SequenceStatus[];
  to: SequenceStatus;
  now: Date;
  approval?: SequenceApproval | null;
  pauseReason?: string | null;
  launched?: boolean;
}

/** Moves the sequence when it is in one of `from`; undefined when it was not (someone moved it first). */
export async function setSequenceStatus(
  q: Queryable,
  workspaceId: string,
  id: string,
  change: StatusChange,
): Promise<SequenceRow | undefined> {
  const sql = query(q);
  const [row] = await sql<SequenceRow[]>`
    update sequences set status = ${change.to}, updated_at = ${change.now},
      ${change.approval !== undefined ? sql`approval = ${change.approval === null ? null : sql.json(change.approval as never)},` : sql``}
      ${change.launched ? sql`launched_at = coalesce(launched_at, ${change.now}),` : sql``}
      pause_reason = ${change.pauseReason ?? null}
    where id = ${id} and workspace_id = ${workspaceId} and status = any(${sql.array(change.from)}::text[])
    returning ${columns(q)}`;
  return row;
}

export async function deleteSequence(q: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await query(
    q,
  )`delete from sequences where id = ${id} and workspace_id = ${workspaceId} and status = 'draft' and launched_at is null returning id`;
  return rows.length === 1;
}

/**
 * Pauses the active sequences sending through a connector that has none of their other mailboxes left able
 * to send (connected, not paused); a sequence with another such mailbox goes on from it.
 */
export async function pauseSequencesOfConnector(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  reason: string,
  now: Date,
): Promise<SequenceRow[]> {
  return query(q)<SequenceRow[]>`
    update sequences s set status = 'paused', pause_reason = ${reason}, updated_at = ${now}
    where s.workspace_id = ${workspaceId} and ${connectorId} = any(s.sender_connector_ids) and s.status = 'active'
      and not exists (select 1 from connectors c where c.workspace_id = ${workspaceId} and c.id = any(s.sender_connector_ids)
                        and c.id <> ${connectorId} and c.status = 'connected' and c.sending_paused_reason is null)
    returning ${columns(q)}`;
}

export interface SequenceStatsRow {
  enrolled: number;
  scheduled: number;
  sent: number;
  failed: number;
  bounced: number;
  unsubscribed: number;
  uncertain: number;
  /** Leads (enrollments) with at least one message answered by a person. */
  replied: number;
  /** Leads (enrollments) with at least one message answered by an auto-reply (out of office). */
  auto_replied: number;
  /** Messages that were accepted, then bounced back later (a bounce notice in the mailbox). */
  bounced_late: number;
}

/** Counted from the enrollments and messages themselves, so the stats cannot drift from what happened. */
export async function sequenceStats(
  q: Queryable,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, SequenceStatsRow>> {
  const sql = query(q);
  const rows = await sql<Array<SequenceStatsRow & { id: string }>>`
    select s.id,
      (select count(*)::int from sequence_enrollments e where e.sequence_id = s.id) as enrolled,
      (select count(*)::int from sequence_enrollments e where e.sequence_id = s.id and e.stop_reason = 'bounced') as bounced,
      (select count(*)::int from sequence_enrollments e where e.sequence_id = s.id and e.stop_reason = 'unsubscribed') as unsubscribed,
      coalesce(m.scheduled, 0) as scheduled, coalesce(m.sent, 0) as sent, coalesce(m.failed, 0) as failed, coalesce(m.uncertain, 0) as uncertain,
      coalesce(m.replied, 0) as replied, coalesce(m.auto_replied, 0) as auto_replied, coalesce(m.bounced_late, 0) as bounced_late
    from sequences s
    left join lateral (
      select count(*) filter (where status in ('scheduled', 'claimed', 'sending'))::int as scheduled,
             count(*) filter (where status = 'sent')::int as sent,
             count(*) filter (where status = 'failed')::int as failed,
             count(*) filter (where status = 'uncertain')::int as uncertain,
             count(distinct enrollment_id) filter (where reply_state = 'replied')::int as replied,
             count(distinct enrollment_id) filter (where reply_state = 'auto_replied')::int as auto_replied,
             count(*) filter (where reply_state = 'bounced')::int as bounced_late
      from sequence_messages where sequence_id = s.id) m on true
    where s.workspace_id = ${workspaceId} and s.id = any(${sql.array(ids)}::text[])`;
  return new Map(rows.map(({ id, ...stats }) => [id, stats]));
}

export interface WorkspaceSettingsRow {
  postal_address: string | null;
  require_human_approval: boolean;
}

export async function findWorkspaceSettings(q: Queryable, workspaceId: string): Promise<WorkspaceSettingsRow> {
  const [row] = await query(q)<WorkspaceSettingsRow[]>`
    select postal_address, require_human_approval from workspace_settings where workspace_id = ${workspaceId}`;
  return row ?? { postal_address: null, require_human_approval: true };
}

export async function saveWorkspaceSettings(
  q: Queryable,
  workspaceId: string,
  settings: WorkspaceSettingsRow,
  now: Date,
): Promise<WorkspaceSettingsRow> {
  const [row] = await query(q)<WorkspaceSettingsRow[]>`
    insert into workspace_settings (workspace_id, postal_address, require_human_approval, updated_at)
    values (${workspaceId}, ${settings.postal_address}, ${settings.require_human_approval}, ${now})
    on conflict (workspace_id) do update set postal_address = excluded.postal_address,
      require_human_approval = excluded.require_human_approval, updated_at = excluded.updated_at
    returning postal_address, require_human_approval`;
  return row;
}
