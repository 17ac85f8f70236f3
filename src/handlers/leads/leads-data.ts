// The leads table: single leads and the filters of list_leads and export_leads. Tenant rows: every
// function takes the workspace id right after the queryable. Imports write leads a batch at a time
// through lead-batch-data.ts.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import { emailHash } from './lead-suppressions-data.ts';

export type LeadStatus = 'active' | 'unsubscribed' | 'bounced' | 'do_not_contact';
export const LEAD_STAGES = [
  'new',
  'contacted',
  'replied',
  'interested',
  'meeting_booked',
  'won',
  'lost',
  'not_interested',
] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

export interface LeadFields {
  email: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  title: string | null;
  phone: string | null;
  website: string | null;
  linkedin_url: string | null;
  timezone: string | null;
  tags: string[];
  custom_fields: Record<string, string | number | boolean | null>;
}

export interface LeadRow extends LeadFields {
  id: string;
  status: LeadStatus;
  stage: LeadStage;
  source_import_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const leadColumns = (q: Queryable) => query(q)`
  id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields, status,
  stage, source_import_id, created_at, updated_at`;

/**
 * `lock` takes the row for the rest of the transaction. A change to a lead and its enrollments takes the lead
 * first, as recording a send does (send-record.ts: the message, the lead, then the enrollment); the other order
 * deadlocks with a send to that lead.
 */
export async function findLead(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { lock?: 'update' | 'no key update' } = {},
): Promise<LeadRow | undefined> {
  const sql = query(q);
  const lock = options.lock === 'update' ? sql`for update` : options.lock ? sql`for no key update` : sql``;
  const [row] = await sql<
    LeadRow[]
  >`select ${leadColumns(q)} from leads where id = ${id} and workspace_id = ${workspaceId} ${lock}`;
  return row;
}

export interface LeadFilter {
  q?: string;
  statuses: LeadStatus[];
  stages?: LeadStage[];
  tag?: string;
  importId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  before?: { at: string; id: string };
  limit: number;
}

/** The leads a filter selects (list_leads, export_leads), as `and …` conditions after the workspace's. */
export function leadConditions(q: Queryable, filter: Omit<LeadFilter, 'before' | 'limit'>) {
  const sql = query(q);
  const like = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return sql`
      ${like ? sql`and (email ilike ${like} or first_name ilike ${like} or last_name ilike ${like} or company ilike ${like})` : sql``}
      ${filter.statuses.length ? sql`and status = any(${sql.array(filter.statuses)}::text[])` : sql``}
      ${stageCondition(q, filter.stages ?? [])}
      ${filter.tag ? sql`and tags @> ${sql.array([filter.tag])}::text[]` : sql``}
      ${filter.importId ? sql`and source_import_id = ${filter.importId}` : sql``}
      ${filter.createdAfter ? sql`and created_at > ${filter.createdAfter}` : sql``}
      ${filter.createdBefore ? sql`and created_at < ${filter.createdBefore}` : sql``}`;
}

/**
 * The stages as literals, not parameters (the list is closed, and checked here): a plan made for a parameter,
 * as PostgreSQL caches one for a prepared statement after a few runs, cannot prove that `won` excludes `new`
 * and never uses the partial index leads_workspace_stage (0019); one made for the literals does, so a page of
 * a rare stage reads a few index entries instead of the workspace's leads.
 */
function stageCondition(q: Queryable, stages: readonly LeadStage[]) {
  const sql = query(q);
  if (stages.length === 0) return sql``;
  for (const stage of stages) if (!LEAD_STAGES.includes(stage)) throw new Error(`unknown lead stage ${stage}`);
  return sql`and stage in (${sql.unsafe(stages.map((stage) => `'${stage}'`).join(', '))})`;
}

/** A page of the workspace's leads, newest first; `q` matches email, names and company (case-insensitive). */
export function listLeadRows(q: Queryable, workspaceId: string, filter: LeadFilter): Promise<LeadRow[]> {
  const sql = query(q);
  return sql<LeadRow[]>`
    select ${leadColumns(q)} from leads
    where workspace_id = ${workspaceId} ${leadConditions(q, filter)}
      ${filter.before ? sql`and (created_at, id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** One lead; undefined when the workspace already has that address. */
export async function insertLead(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  lead: LeadFields,
  now: Date,
): Promise<LeadRow | undefined> {
  const sql = query(q);
  const [row] = await sql<LeadRow[]>`
    insert into leads (id, workspace_id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields, status, created_at, updated_at)
    select ${ids.make('lead')}, ${workspaceId}, ${lead.email}, ${lead.first_name}, ${lead.last_name}, ${lead.company}, ${lead.title}, ${lead.phone},
           ${lead.website}, ${lead.linkedin_url}, ${lead.timezone}, ${sql.array(lead.tags)}::text[], ${sql.json(lead.custom_fields)},
           coalesce((select case when reason in ('unsubscribed', 'bounced') then reason else 'do_not_contact' end
                     from lead_suppressions where workspace_id = ${workspaceId} and email_hash = ${emailHash(lead.email)}), 'active'),
           ${now}, ${now}
    on conflict (workspace_id, email) do nothing
    returning ${leadColumns(q)}`;
  return row;
}

/** Replaces a lead's fields (status untouched); undefined when absent; throws on a taken address (unique violation). */
export async function updateLeadFields(
  q: Queryable,
  workspaceId: string,
  id: string,
  lead: LeadFields,
  now: Date,
): Promise<LeadRow | undefined> {
  const sql = query(q);
  const [row] = await sql<LeadRow[]>`
    update leads set email = ${lead.email}, first_name = ${lead.first_name}, last_name = ${lead.last_name}, company = ${lead.company},
      title = ${lead.title}, phone = ${lead.phone}, website = ${lead.website}, linkedin_url = ${lead.linkedin_url}, timezone = ${lead.timezone},
      tags = ${sql.array(lead.tags)}::text[], custom_fields = ${sql.json(lead.custom_fields)}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${leadColumns(q)}`;
  return row;
}

export async function setLeadStatus(
  q: Queryable,
  workspaceId: string,
  id: string,
  status: LeadStatus,
  now: Date,
): Promise<LeadRow | undefined> {
  const [row] = await query(q)<LeadRow[]>`
    update leads set status = ${status}, updated_at = ${now} where id = ${id} and workspace_id = ${workspaceId}
    returning ${leadColumns(q)}`;
  return row;
}

/**
 * Sets the lead's stage when its current stage is one of `from` (any stage when omitted) and differs from
 * `stage`; answers the lead with the stage it had, or undefined when absent or not moved.
 */
export async function setLeadStage(
  q: Queryable,
  workspaceId: string,
  id: string,
  change: { stage: LeadStage; from?: LeadStage[]; now: Date },
): Promise<(LeadRow & { previous_stage: LeadStage }) | undefined> {
  const sql = query(q);
  const [row] = await sql<Array<LeadRow & { previous_stage: LeadStage }>>`
    with old as (select id as old_id, stage as old_stage from leads where id = ${id} and workspace_id = ${workspaceId} for update)
    update leads set stage = ${change.stage}, updated_at = ${change.now} from old
    where leads.id = old.old_id and old.old_stage <> ${change.stage}
      ${change.from ? sql`and old.old_stage = any(${sql.array(change.from)}::text[])` : sql``}
    returning ${leadColumns(q)}, old.old_stage as previous_stage`;
  return row;
}

/**
 * The same move for several leads at once (locked in id order), returning the ones that moved.
 *
 * Each lead is found by its primary key, one probe per id. Written as `workspace_id = … and id = any(…)`, the
 * planner may instead read every lead of the workspace through an index that leads with workspace_id
 * (`leads_workspace_import`, `leads_workspace_created`) and check the ids there. It does that when it
 * underestimates the workspace, as it does before a large import's leads are analyzed. Measured on
 * PostgreSQL: 4.6–5.3 ms per group of 8 sent messages instead of about 0.3 ms, 23% of the database's time
 * while a sequence sends (issue 32).
 */
export async function setLeadStages(
  q: Queryable,
  workspaceId: string,
  ids: string[],
  change: { stage: LeadStage; from: LeadStage[]; now: Date },
): Promise<Array<{ id: string; stage: LeadStage; previous_stage: LeadStage }>> {
  if (ids.length === 0) return [];
  const sql = query(q);
  // Sorted here, and locked in that order as the rows of the unnest are joined one after another.
  const sorted = [...new Set(ids)].sort();
  return sql<Array<{ id: string; stage: LeadStage; previous_stage: LeadStage }>>`
    with old as (select l.id as old_id, l.stage as old_stage
                 from unnest(${sql.array(sorted)}::text[]) as wanted(id)
                 cross join lateral (
                   select id, stage from leads
                   where id = wanted.id and workspace_id = ${workspaceId}
                     and stage = any(${sql.array(change.from)}::text[]) and stage <> ${change.stage}
                   for update) l)
    update leads set stage = ${change.stage}, updated_at = ${change.now} from old
    where leads.id = old.old_id
    returning leads.id, leads.stage, old.old_stage as previous_stage`;
}

/** Erases the lead (every personal field goes with the row); the caller keeps the address's hash as a suppression. */
export async function deleteLeadRow(q: Queryable, workspaceId: string, id: string): Promise<LeadRow | undefined> {
  const [row] = await query(q)<
    LeadRow[]
  >`delete from leads where id = ${id} and workspace_id = ${workspaceId} returning ${leadColumns(q)}`;
  return row;
}
