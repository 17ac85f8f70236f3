// Leads enrolled in sequences (migration 0013). Enrolling is set-based: candidates are read in pages with
// the facts that decide them (suppressed, already enrolled, which variables they lack), then the eligible
// ones are inserted with one statement per page; `on conflict do nothing` keeps a lead in a sequence once
// even when two enrollments race.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import type { LeadStage } from '../leads/leads-data.ts';

export type EnrollmentStatus = 'active' | 'completed' | 'stopped' | 'removed';

export interface EnrollmentRow {
  id: string;
  workspace_id: string;
  sequence_id: string;
  lead_id: string | null;
  email: string | null;
  /** The mailbox it is pinned to (mailbox-pinning.ts); null until the sequence has one that can send. */
  connector_id: string | null;
  status: EnrollmentStatus;
  next_step: number | null;
  next_due_at: Date | null;
  stop_reason: string | null;
  enrolled_at: Date;
  updated_at: Date;
}

/** The lead fields a sequence's variables may name (a whitelist: they become column names in SQL). */
export const LEAD_VARIABLE_COLUMNS = [
  'first_name',
  'last_name',
  'company',
  'title',
  'email',
  'phone',
  'website',
  'linkedin_url',
  'timezone',
] as const;
export type LeadVariableColumn = (typeof LEAD_VARIABLE_COLUMNS)[number];

export interface RequiredVariables {
  columns: LeadVariableColumn[];
  custom: string[];
}

export type EnrollSource =
  | { leadIds: string[] }
  | { importId: string }
  | { filter: { tag?: string; q?: string; stages?: LeadStage[]; createdAfter?: Date; createdBefore?: Date } };

export interface Candidate {
  lead_id: string;
  suppressed: boolean;
  already: boolean;
  missing: string[];
}

const PAGE = 5000;

function sourceCondition(q: Queryable, source: EnrollSource) {
  const sql = query(q);
  if ('leadIds' in source) return sql`and l.id = any(${sql.array(source.leadIds)}::text[])`;
  if ('importId' in source) return sql`and l.source_import_id = ${source.importId}`;
  const f = source.filter;
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return sql`
    ${like ? sql`and (l.email ilike ${like} or l.first_name ilike ${like} or l.last_name ilike ${like} or l.company ilike ${like})` : sql``}
    ${f.tag ? sql`and l.tags @> ${sql.array([f.tag])}::text[]` : sql``}
    ${f.stages?.length ? sql`and l.stage = any(${sql.array(f.stages)}::text[])` : sql``}
    ${f.createdAfter ? sql`and l.created_at > ${f.createdAfter}` : sql``}
    ${f.createdBefore ? sql`and l.created_at < ${f.createdBefore}` : sql``}`;
}

function missingExpression(q: Queryable, required: RequiredVariables) {
  const sql = query(q);
  const parts = [
    ...required.columns.map((c) => sql`case when coalesce(l.${sql(c)}, '') = '' then ${c} end`),
    ...required.custom.map((k) => sql`case when coalesce(l.custom_fields ->> ${k}, '') = '' then ${`custom.${k}`} end`),
  ];
  if (parts.length === 0) return sql`'{}'::text[]`;
  const joined = parts.slice(1).reduce((acc, part) => sql`${acc}, ${part}`, parts[0]);
  return sql`array_remove(array[${joined}]::text[], null)`;
}

/** One page of candidates after `afterId`, by lead id, with what decides each. */
export function enrollmentCandidates(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  source: EnrollSource,
  required: RequiredVariables,
  afterId: string,
): Promise<Candidate[]> {
  const sql = query(q);
  return sql<Candidate[]>`
    select l.id as lead_id,
      (l.status <> 'active' or exists (select 1 from lead_suppressions s where s.workspace_id = l.workspace_id
         and s.email_hash = encode(sha256(convert_to(l.email, 'UTF8')), 'hex'))) as suppressed,
      exists (select 1 from sequence_enrollments e where e.sequence_id = ${sequenceId} and e.lead_id = l.id) as already,
      ${missingExpression(q, required)} as missing
    from leads l
    where l.workspace_id = ${workspaceId} ${sourceCondition(q, source)} and l.id > ${afterId}
    order by l.id
    limit ${PAGE}`;
}

export const CANDIDATE_PAGE = PAGE;

/** Inserts enrollments for these leads; returns the lead ids actually enrolled (not already there). */
export async function insertEnrollments(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: {
    sequenceId: string;
    leadIds: string[];
    /** The mailbox each lead's enrollment is pinned to ('' for none yet), in the order of leadIds. */
    connectorIds: string[];
    nextDueAt: Date | null;
    now: Date;
  },
): Promise<string[]> {
  if (fields.leadIds.length === 0) return [];
  const sql = query(q);
  const enrollmentIds = fields.leadIds.map(() => ids.make('enr'));
  const rows = await sql<{ lead_id: string }[]>`
    insert into sequence_enrollments (id, workspace_id, sequence_id, lead_id, connector_id, status, next_step, next_due_at, enrolled_at, updated_at)
    select e.id, ${workspaceId}, ${fields.sequenceId}, e.lead_id, nullif(e.connector_id, ''), 'active', 1, ${fields.nextDueAt}, ${fields.now}, ${fields.now}
    from unnest(${sql.array(enrollmentIds)}::text[], ${sql.array(fields.leadIds)}::text[], ${sql.array(fields.connectorIds)}::text[])
      as e(id, lead_id, connector_id)
    on conflict (sequence_id, lead_id) do nothing
    returning lead_id`;
  return rows.map((r) => r.lead_id);
}

const columns = (q: Queryable) => query(q)`
  e.id, e.workspace_id, e.sequence_id, e.lead_id, l.email, e.connector_id, e.status, e.next_step, e.next_due_at, e.stop_reason, e.enrolled_at, e.updated_at`;

export function listEnrollments(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  page: { statuses: EnrollmentStatus[]; after?: { at: string; id: string }; limit: number },
): Promise<EnrollmentRow[]> {
  const sql = query(q);
  return sql<EnrollmentRow[]>`
    select ${columns(q)} from sequence_enrollments e left join leads l on l.id = e.lead_id
    where e.workspace_id = ${workspaceId} and e.sequence_id = ${sequenceId}
      ${page.statuses.length ? sql`and e.status = any(${sql.array(page.statuses)}::text[])` : sql``}
      ${page.after ? sql`and (e.enrolled_at, e.id) > (${page.after.at}::timestamptz, ${page.after.id})` : sql``}
    order by e.enrolled_at, e.id
    limit ${page.limit}`;
}

export async function countActiveEnrollments(q: Queryable, workspaceId: string, sequenceId: string): Promise<number> {
  const [row] = await query(q)<{ n: number }[]>`
    select count(*)::int as n from sequence_enrollments where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and status = 'active'`;
  return row.n;
}

/** Gives waiting first steps their due time (at launch: enrollments made before the sequence was active). */
export async function startWaitingEnrollments(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  dueAt: Date,
  now: Date,
): Promise<number> {
  const rows = await query(q)`
    update sequence_enrollments set next_due_at = ${dueAt}, updated_at = ${now}
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and status = 'active' and next_step = 1 and next_due_at is null
    returning id`;
  return rows.length;
}

/** Stops enrollments and cancels their messages not yet handed to the provider. */
export async function stopEnrollments(
  q: Queryable,
  workspaceId: string,
  where: { sequenceId?: string; leadId?: string; enrollmentId?: string },
  fields: { status: 'stopped' | 'removed' | 'completed'; reason: string; now: Date },
): Promise<EnrollmentRow[]> {
  const sql = query(q);
  const stopped = await sql<{ id: string }[]>`
    update sequence_enrollments set status = ${fields.status}, stop_reason = ${fields.reason}, next_due_at = null, updated_at = ${fields.now}
    where workspace_id = ${workspaceId} and status = 'active'
      ${where.sequenceId ? sql`and sequence_id = ${where.sequenceId}` : sql``}
      ${where.leadId ? sql`and lead_id = ${where.leadId}` : sql``}
      ${where.enrollmentId ? sql`and id = ${where.enrollmentId}` : sql``}
    returning id`;
  if (stopped.length === 0) return [];
  const ids = stopped.map((r) => r.id);
  await sql`
    update sequence_messages set status = 'cancelled', error_code = ${fields.reason}, claim_token = null, updated_at = ${fields.now}
    where workspace_id = ${workspaceId} and enrollment_id = any(${sql.array(ids)}::text[]) and status in ('scheduled', 'claimed')`;
  return sql<EnrollmentRow[]>`
    select ${columns(q)} from sequence_enrollments e left join leads l on l.id = e.lead_id where e.id = any(${sql.array(ids)}::text[])`;
}

export async function findEnrollmentByLead(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  leadId: string,
): Promise<EnrollmentRow | undefined> {
  const [row] = await query(q)<EnrollmentRow[]>`
    select ${columns(q)} from sequence_enrollments e left join leads l on l.id = e.lead_id
    where e.workspace_id = ${workspaceId} and e.sequence_id = ${sequenceId} and e.lead_id = ${leadId}`;
  return row;
}

/** Active enrollments of the sequence by the mailbox they are pinned to. */
export async function countActivePinned(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
): Promise<Map<string, number>> {
  const rows = await query(q)<{ connector_id: string; n: number }[]>`
    select connector_id, count(*)::int as n from sequence_enrollments
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and status = 'active' and connector_id is not null
    group by connector_id`;
  return new Map(rows.map((r) => [r.connector_id, r.n]));
}

/**
 * Active enrollments that have sent nothing (every message of theirs still scheduled, or none) and are pinned
 * to none of `usable`: not pinned yet, or pinned to a mailbox that left the sequence or cannot send. Locked.
 */
export async function waitingForMailbox(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  usable: string[],
  limit: number,
): Promise<string[]> {
  const sql = query(q);
  const rows = await sql<{ id: string }[]>`
    select e.id from sequence_enrollments e
    where e.workspace_id = ${workspaceId} and e.sequence_id = ${sequenceId} and e.status = 'active'
      and (e.connector_id is null or e.connector_id <> all(${sql.array(usable)}::text[]))
      and not exists (select 1 from sequence_messages m where m.enrollment_id = e.id and m.status <> 'scheduled')
    order by e.enrolled_at, e.id limit ${limit} for update of e skip locked`;
  return rows.map((r) => r.id);
}

/** Pins enrollments to mailboxes (parallel arrays); their messages still waiting go with them. */
export async function pinEnrollments(
  q: Queryable,
  workspaceId: string,
  pins: { enrollmentIds: string[]; connectorIds: string[]; now: Date },
): Promise<void> {
  if (pins.enrollmentIds.length === 0) return;
  const sql = query(q);
  const p = sql`unnest(${sql.array(pins.enrollmentIds)}::text[], ${sql.array(pins.connectorIds)}::text[]) as p(id, connector_id)`;
  await sql`
    update sequence_enrollments e set connector_id = p.connector_id, updated_at = ${pins.now} from ${p}
    where e.id = p.id and e.workspace_id = ${workspaceId}`;
  await sql`
    update sequence_messages m set connector_id = p.connector_id, mode = c.mode, updated_at = ${pins.now}
    from ${p} join connectors c on c.id = p.connector_id and c.workspace_id = ${workspaceId}
    where m.enrollment_id = p.id and m.workspace_id = ${workspaceId} and m.status = 'scheduled'`;
}

/** The mailbox the lead's enrollment in the sequence is pinned to, if any. */
export async function pinnedMailbox(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  leadId: string,
): Promise<string | null> {
  const [row] = await query(q)<{ connector_id: string | null }[]>`
    select connector_id from sequence_enrollments
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and lead_id = ${leadId}`;
  return row?.connector_id ?? null;
}
