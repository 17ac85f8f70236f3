// The leads and lead_suppressions tables, written by imports and the single-lead operations.
// Tenant rows: every function takes the workspace id right after the queryable.
// Imports write leads a batch at a time with one set-based statement (insert … select from unnest …
// on conflict). The batch is encoded while it is filled (LeadBatch), so writing it costs the import's
// thread little. On PostgreSQL 15 (scripts/bench/leads-main.ts, 100,000 rows, 2 cores shared with
// other work, so read the figures as ratios): a bare insert … select into leads cost 19–20 µs/row
// with 0009's five indexes and the workspace foreign key, 13–16 µs/row after 0012 dropped the GIN
// index on tags and the foreign key; writeLeadBatch alone went from 25k to 38–40k rows/s, beside a
// plain unnest insert into an unindexed table at 150–240k rows/s in the same runs.
import { hash } from 'node:crypto';
import type { Ids } from '../deps.ts';
import { ArrayLiteralWriter } from '../leads/array-literal.ts';
import { query, type Queryable } from './queryable.ts';

export type LeadStatus = 'active' | 'unsubscribed' | 'bounced' | 'do_not_contact';
export type SuppressionReason = 'unsubscribed' | 'bounced' | 'do_not_contact' | 'deleted';

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
  source_import_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The suppression list keys an address by this hash, so a deleted person's address is not kept. */
export const emailHash = (normalisedEmail: string) => hash('sha256', normalisedEmail, 'hex');

export interface BatchOutcome {
  /** Row numbers (as given) whose lead was created, updated, or skipped as already present. */
  created: number[];
  updated: number[];
  skipped: number[];
}

export interface BatchCounts {
  created: number;
  updated: number;
  skipped: number;
}

/** The columns a batch sends, one text[] parameter each, in this order. */
const BATCH_COLUMNS = 12;

/**
 * A batch of normalised leads for writeLeads, encoded as it is filled: each lead's values are copied at
 * once into one PostgreSQL array literal per column (bytes, ArrayLiteralWriter), so neither the lead
 * object nor its strings outlive the young generation, and writing the batch
 * costs the JavaScript thread almost nothing (the import fills the next batch while one is written).
 * Emails must be unique in a batch: `has` tells the caller, which counts later copies as duplicates.
 */
export class LeadBatch {
  private readonly rowOf = new Map<string, number>();
  private readonly columns = Array.from({ length: BATCH_COLUMNS }, () => new ArrayLiteralWriter());

  constructor(
    private readonly ids: Ids,
    private readonly addTags: readonly string[],
  ) {}

  get size(): number {
    return this.rowOf.size;
  }

  has(email: string): boolean {
    return this.rowOf.has(email);
  }

  add(row: number, lead: LeadFields): void {
    this.rowOf.set(lead.email, row);
    const tags = this.addTags.length === 0 && lead.tags.length < 2 ? lead.tags : [...new Set([...lead.tags, ...this.addTags])];
    const c = this.columns;
    c[0].push(this.ids.make('lead'));
    c[1].push(lead.email);
    c[2].push(lead.first_name);
    c[3].push(lead.last_name);
    c[4].push(lead.company);
    c[5].push(lead.title);
    c[6].push(lead.phone);
    c[7].push(lead.website);
    c[8].push(lead.linkedin_url);
    c[9].push(lead.timezone);
    // Tags are an array literal inside the column's literal; custom fields JSON text, cast per row.
    // The address's hash (for the suppression list) is computed by the insert itself: sha256 here
    // was a tenth of the thread's time per row.
    c[10].push(tags.length === 0 ? '{}' : arrayLiteral(tags));
    c[11].push(isEmpty(lead.custom_fields) ? '{}' : JSON.stringify(lead.custom_fields));
  }

  /** One text[] literal per column, in BATCH_COLUMNS order. */
  literals(): string[] {
    return this.columns.map((column) => column.toString());
  }

  /** The row numbers of the batch by email. */
  rows(): Map<string, number> {
    return new Map(this.rowOf);
  }
}

/** One element of an array literal, quoted with backslash and double quote escaped. */
function element(value: string): string {
  return `"${value.indexOf('"') < 0 && value.indexOf('\\') < 0 ? value : value.replace(/[\\"]/g, '\\$&')}"`;
}

function isEmpty(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return false;
  return true;
}

/** A PostgreSQL text[] literal: every element quoted, so no value is read as NULL or split. */
function arrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < values.length; i++) out += `${i > 0 ? ',' : ''}${element(values[i])}`;
  return `${out}}`;
}

/**
 * Writes one batch of normalised leads, each with its row number; emails must be unique within the
 * batch (the caller counts later copies as duplicates). `skip` leaves existing leads untouched;
 * `update` fills their fields (present values win, tags and custom fields are merged) but never
 * changes a status: an unsubscribed, bounced or do-not-contact lead stays so. A new lead whose
 * address is on the suppression list is created with the suppressed status, never `active`.
 */
export async function writeLeadBatch(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  batch: Array<{ row: number; lead: LeadFields }>,
  options: WriteOptions,
): Promise<BatchOutcome> {
  const leads = new LeadBatch(ids, options.addTags);
  for (const { row, lead } of batch) leads.add(row, lead);
  return writeLeads(q, workspaceId, leads, options);
}

interface WriteOptions {
  onConflict: 'skip' | 'update';
  importId: string | null;
  addTags: readonly string[];
  now: Date;
}

/** writeLeadBatch for a LeadBatch built by the caller; the row numbers come back by outcome. */
export async function writeLeads(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>): Promise<BatchOutcome> {
  if (batch.size === 0) return { created: [], updated: [], skipped: [] };
  // The written rows come back by email (unique in the batch), matched to their row numbers here.
  const written = await query(q)<{ email: string; inserted: boolean }[]>`${insertBatch(q, workspaceId, batch, options)} returning email, (xmax = 0) as inserted`;
  return outcome(batch.rows(), written);
}

/** writeLeads when only the counts matter (an import run as a job): nothing comes back per row. */
export async function writeLeadCounts(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>): Promise<BatchCounts> {
  if (batch.size === 0) return { created: 0, updated: 0, skipped: 0 };
  const sql = query(q);
  // `skip` inserts or leaves alone, so the statement's row count is the created count: returning the
  // rows into a counting CTE cost the database a fifth of its time per row (measured on PostgreSQL 15).
  if (options.onConflict === 'skip') {
    const { count } = await insertBatch(q, workspaceId, batch, options);
    return { created: count, updated: 0, skipped: batch.size - count };
  }
  const [row] = await sql<{ created: number; updated: number }[]>`
    with written as (${insertBatch(q, workspaceId, batch, options)} returning (xmax = 0) as inserted)
    select (count(*) filter (where inserted))::int as created, (count(*) filter (where not inserted))::int as updated from written`;
  return { created: row.created, updated: row.updated, skipped: batch.size - row.created - row.updated };
}

/** The set-based insert of a batch (insert … select from unnest … on conflict), without its returning clause. */
function insertBatch(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>) {
  const sql = query(q);
  const [id, email, firstName, lastName, company, title, phone, website, linkedinUrl, timezone, tags, customFields] = batch.literals();
  const conflict = options.onConflict === 'update'
    ? sql`on conflict (workspace_id, email) do update set
        first_name = coalesce(excluded.first_name, leads.first_name), last_name = coalesce(excluded.last_name, leads.last_name),
        company = coalesce(excluded.company, leads.company), title = coalesce(excluded.title, leads.title),
        phone = coalesce(excluded.phone, leads.phone), website = coalesce(excluded.website, leads.website),
        linkedin_url = coalesce(excluded.linkedin_url, leads.linkedin_url), timezone = coalesce(excluded.timezone, leads.timezone),
        tags = array(select distinct t from unnest(leads.tags || excluded.tags) as t order by t),
        custom_fields = leads.custom_fields || excluded.custom_fields, updated_at = excluded.updated_at`
    : sql`on conflict (workspace_id, email) do nothing`;
  // Each column is one text parameter already in array-literal form: postgres.js sends it as it is.
  return sql`
    insert into leads (id, workspace_id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone,
                       tags, custom_fields, status, source_import_id, created_at, updated_at)
    select i.id, ${workspaceId}, i.email, i.first_name, i.last_name, i.company, i.title, i.phone, i.website, i.linkedin_url, i.timezone,
           i.tags::text[], i.custom_fields::jsonb,
           ${suppressedStatus(q, workspaceId)},
           ${options.importId}, ${options.now}, ${options.now}
    from unnest(
      ${id}::text[], ${email}::text[], ${firstName}::text[], ${lastName}::text[], ${company}::text[], ${title}::text[], ${phone}::text[],
      ${website}::text[], ${linkedinUrl}::text[], ${timezone}::text[], ${tags}::text[], ${customFields}::text[]
    ) as i(id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields)
    ${conflict}`;
}

/**
 * A new lead's status: its address's suppression, else active. A workspace without suppressions (the
 * common case) answers once for the whole statement (an uncorrelated subquery, run once), and no row
 * pays for the hash of its address and the lookup.
 */
function suppressedStatus(q: Queryable, workspaceId: string) {
  return query(q)`case when not exists (select from lead_suppressions where workspace_id = ${workspaceId}) then 'active'
    else coalesce((select case when s.reason in ('unsubscribed', 'bounced') then s.reason else 'do_not_contact' end from lead_suppressions s
                   where s.workspace_id = ${workspaceId} and s.email_hash = encode(sha256(convert_to(i.email, 'UTF8')), 'hex')), 'active') end`;
}

function outcome(rowOf: Map<string, number>, written: Array<{ email: string; inserted: boolean }>): BatchOutcome {
  const created: number[] = [];
  const updated: number[] = [];
  for (const w of written) {
    const row = rowOf.get(w.email) as number;
    rowOf.delete(w.email);
    (w.inserted ? created : updated).push(row);
  }
  // What is left was neither inserted nor updated: already present, and `skip` left it alone.
  const byRow = (a: number, b: number) => a - b;
  return { created: created.sort(byRow), updated: updated.sort(byRow), skipped: [...rowOf.values()] };
}

/** Puts an address on the workspace's suppression list (idempotent; the first reason stays). */
export async function suppress(q: Queryable, workspaceId: string, normalisedEmail: string, reason: SuppressionReason, now: Date): Promise<void> {
  await query(q)`
    insert into lead_suppressions (workspace_id, email_hash, reason, created_at)
    values (${workspaceId}, ${emailHash(normalisedEmail)}, ${reason}, ${now})
    on conflict (workspace_id, email_hash) do nothing`;
}


export const leadColumns = (q: Queryable) => query(q)`
  id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields, status,
  source_import_id, created_at, updated_at`;

export async function findLead(q: Queryable, workspaceId: string, id: string): Promise<LeadRow | undefined> {
  const [row] = await query(q)<LeadRow[]>`select ${leadColumns(q)} from leads where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export interface LeadFilter {
  q?: string;
  statuses: LeadStatus[];
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
      ${filter.tag ? sql`and tags @> ${sql.array([filter.tag])}::text[]` : sql``}
      ${filter.importId ? sql`and source_import_id = ${filter.importId}` : sql``}
      ${filter.createdAfter ? sql`and created_at > ${filter.createdAfter}` : sql``}
      ${filter.createdBefore ? sql`and created_at < ${filter.createdBefore}` : sql``}`;
}

/** A page of the workspace's leads, newest first; `q` matches email, names and company (case-insensitive). */
export function listLeads(q: Queryable, workspaceId: string, filter: LeadFilter): Promise<LeadRow[]> {
  const sql = query(q);
  return sql<LeadRow[]>`
    select ${leadColumns(q)} from leads
    where workspace_id = ${workspaceId} ${leadConditions(q, filter)}
      ${filter.before ? sql`and (created_at, id) < (${filter.before.at}::timestamptz, ${filter.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

export type ImportStatus = 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';

export interface ImportRow {
  id: string;
  workspace_id: string;
  status: ImportStatus;
  source: 'rows' | 'csv' | 'csv_url';
  source_url: string | null;
  on_conflict: 'skip' | 'update';
  column_map: Record<string, string>;
  tags: string[];
  total: number;
  created: number;
  updated: number;
  skipped_duplicate: number;
  invalid: number;
  rows_done: number;
  error_message: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const importColumns = (q: Queryable) => query(q)`
  id, workspace_id, status, source, source_url, on_conflict, column_map, tags, total, created, updated, skipped_duplicate, invalid,
  rows_done, error_message, created_at, finished_at`;

export async function insertImport(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: { status: ImportStatus; source: ImportRow['source']; sourceUrl: string | null; onConflict: ImportRow['on_conflict']; columnMap: Record<string, string>; tags: string[]; createdBy: string | null; now: Date },
): Promise<ImportRow> {
  const sql = query(q);
  const [row] = await sql<ImportRow[]>`
    insert into lead_imports (id, workspace_id, status, source, source_url, on_conflict, column_map, tags, created_by, created_at, updated_at)
    values (${ids.make('imp')}, ${workspaceId}, ${fields.status}, ${fields.source}, ${fields.sourceUrl}, ${fields.onConflict},
            ${sql.json(fields.columnMap)}, ${sql.array(fields.tags)}, ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${importColumns(q)}`;
  return row;
}

export async function findImport(q: Queryable, workspaceId: string, id: string): Promise<ImportRow | undefined> {
  const [row] = await query(q)<ImportRow[]>`select ${importColumns(q)} from lead_imports where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function setImportStatus(q: Queryable, workspaceId: string, id: string, fields: { status: ImportStatus; errorMessage?: string | null; now: Date }): Promise<ImportRow | undefined> {
  const finished = ['completed', 'completed_with_errors', 'failed', 'cancelled'].includes(fields.status);
  const [row] = await query(q)<ImportRow[]>`
    update lead_imports set status = ${fields.status}, error_message = ${fields.errorMessage ?? null}, updated_at = ${fields.now},
      finished_at = ${finished ? fields.now : null}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${importColumns(q)}`;
  return row;
}

export async function storeImportPayload(q: Queryable, workspaceId: string, importId: string, content: string): Promise<void> {
  await query(q)`insert into lead_import_payloads (import_id, workspace_id, content) values (${importId}, ${workspaceId}, ${content})`;
}

export async function readImportPayload(q: Queryable, workspaceId: string, importId: string): Promise<string | undefined> {
  const [row] = await query(q)<{ content: string }[]>`select content from lead_import_payloads where import_id = ${importId} and workspace_id = ${workspaceId}`;
  return row?.content;
}

export async function dropImportPayload(q: Queryable, workspaceId: string, importId: string): Promise<void> {
  await query(q)`delete from lead_import_payloads where import_id = ${importId} and workspace_id = ${workspaceId}`;
}

export interface ImportErrorRow {
  row: number;
  seq: number;
  line: number | null;
  column: string | null;
  value: string | null;
  code: string;
  message: string;
}

export function listImportErrors(q: Queryable, workspaceId: string, importId: string, page: { limit: number; after?: { row: number; seq: number }; rows?: number[] }): Promise<ImportErrorRow[]> {
  const sql = query(q);
  return sql<ImportErrorRow[]>`
    select row, seq, line, "column", value, code, message from lead_import_errors
    where workspace_id = ${workspaceId} and import_id = ${importId}
      ${page.rows ? sql`and row = any(${sql.array(page.rows)}::int[])` : sql``}
      ${page.after ? sql`and (row, seq) > (${page.after.row}, ${page.after.seq})` : sql``}
    order by row, seq
    limit ${page.limit}`;
}

/** One lead; undefined when the workspace already has that address. */
export async function insertLead(q: Queryable, workspaceId: string, ids: Ids, lead: LeadFields, now: Date): Promise<LeadRow | undefined> {
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
export async function updateLeadFields(q: Queryable, workspaceId: string, id: string, lead: LeadFields, now: Date): Promise<LeadRow | undefined> {
  const sql = query(q);
  const [row] = await sql<LeadRow[]>`
    update leads set email = ${lead.email}, first_name = ${lead.first_name}, last_name = ${lead.last_name}, company = ${lead.company},
      title = ${lead.title}, phone = ${lead.phone}, website = ${lead.website}, linkedin_url = ${lead.linkedin_url}, timezone = ${lead.timezone},
      tags = ${sql.array(lead.tags)}::text[], custom_fields = ${sql.json(lead.custom_fields)}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${leadColumns(q)}`;
  return row;
}

export async function setLeadStatus(q: Queryable, workspaceId: string, id: string, status: LeadStatus, now: Date): Promise<LeadRow | undefined> {
  const [row] = await query(q)<LeadRow[]>`
    update leads set status = ${status}, updated_at = ${now} where id = ${id} and workspace_id = ${workspaceId}
    returning ${leadColumns(q)}`;
  return row;
}

/** Erases the lead (every personal field goes with the row); the caller keeps the address's hash as a suppression. */
export async function deleteLead(q: Queryable, workspaceId: string, id: string): Promise<LeadRow | undefined> {
  const [row] = await query(q)<LeadRow[]>`delete from leads where id = ${id} and workspace_id = ${workspaceId} returning ${leadColumns(q)}`;
  return row;
}

export interface ImportCountsDelta {
  total: number;
  created: number;
  updated: number;
  skipped_duplicate: number;
  invalid: number;
}

/** Adds one batch's counts to the import and moves its checkpoint, in the batch's transaction. */
/**
 * Adds a batch's counts and moves the checkpoint `rows_done` from `rows.from` to `rows.to`; false
 * (nothing changed) when the checkpoint is not at `rows.from`, that is when another run got there first.
 */
export async function addImportBatch(q: Queryable, workspaceId: string, importId: string, delta: ImportCountsDelta, rows: { from: number; to: number }, now: Date): Promise<boolean> {
  const updated = await query(q)`
    update lead_imports set total = total + ${delta.total}, created = created + ${delta.created}, updated = updated + ${delta.updated},
      skipped_duplicate = skipped_duplicate + ${delta.skipped_duplicate}, invalid = invalid + ${delta.invalid},
      rows_done = ${rows.to}, updated_at = ${now}
    where id = ${importId} and workspace_id = ${workspaceId} and rows_done = ${rows.from}`;
  return updated.count === 1;
}

export interface NewImportError {
  row: number;
  line: number | null;
  column: string | null;
  value: string | null;
  code: string;
  message: string;
}

/** A batch's row errors, numbered per row; a repeated batch (a resumed import) adds nothing twice. */
export async function insertImportErrors(q: Queryable, workspaceId: string, importId: string, errors: NewImportError[]): Promise<void> {
  if (errors.length === 0) return;
  const sql = query(q);
  const seq = new Map<number, number>();
  const seqs = errors.map((e) => {
    const n = (seq.get(e.row) ?? 0) + 1;
    seq.set(e.row, n);
    return n;
  });
  await sql`
    insert into lead_import_errors (import_id, workspace_id, row, seq, line, "column", value, code, message)
    select ${importId}, ${workspaceId}, * from unnest(
      ${sql.array(errors.map((e) => e.row))}::int[], ${sql.array(seqs)}::int[], ${sql.array(errors.map((e) => e.line))}::int[],
      ${sql.array(errors.map((e) => e.column))}::text[], ${sql.array(errors.map((e) => e.value))}::text[],
      ${sql.array(errors.map((e) => e.code))}::text[], ${sql.array(errors.map((e) => e.message))}::text[])
    on conflict do nothing`;
}
