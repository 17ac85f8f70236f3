// The leads and lead_suppressions tables, written by imports and the single-lead operations.
// Tenant rows: every function takes the workspace id right after the queryable.
// Imports write leads a batch at a time with one set-based statement (insert … select … on conflict)
// from the batch's rows: unnested array parameters, or, for an import job on PostgreSQL, a staging
// table filled by COPY. The batch is encoded while it is filled (LeadBatch), so writing it costs the
// import's thread little. On PostgreSQL 15 (scripts/bench/leads-main.ts, 100,000 rows, 2 cores shared
// with other work, so read the figures as ratios): a bare insert … select into leads cost 19–20 µs/row
// with 0009's five indexes and the workspace foreign key, 13–16 µs/row after 0012 dropped the GIN
// index on tags and the foreign key. The COPY path is no faster for the database (its insert is the
// cost); it is there for the service's memory: a batch as twelve array-literal strings, held by
// postgres.js until the statement was answered, reached V8's old generation, and a million-row import
// peaked at 140–227 MB above idle (bimodal over runs); by COPY, 65–72 MB.
import { hash } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Database } from '../../db/connection.ts';
import type { Ids } from '../../deps.ts';
import { ArrayLiteralWriter } from './array-literal.ts';
import { CopyTextWriter } from './copy-text.ts';
import { query, type Queryable } from '../../db/queryable.ts';

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

/** The columns of a batch, in this order: one text[] parameter each, or one field each of a COPY row. */
const BATCH_COLUMNS = 12;

/**
 * How a batch goes to the database. `arrays`: one text[] literal per column, unnested by the insert
 * (any database). `copy`: rows in COPY text format, sent with COPY … FROM STDIN into a staging table
 * that the insert reads: PostgreSQL only, since COPY through the socket kills the embedded PGlite
 * process (stageCopiedBatch refuses any other database).
 */
export type BatchEncoding = 'arrays' | 'copy';

export interface LeadBatchOptions {
  /**
   * Keep each lead's row number by email (the default): `has` finds a second copy of an address and
   * `rows` gives writeLeads its row numbers. Without it (an import run as a job, which needs only
   * counts), the batch keeps no string of its leads: copies of an address go to the database, and
   * writeLeadCounts counts the later ones as skipped. Kept, the addresses outlived the young generation
   * and were a fifth of what a large import promoted to the old one.
   */
  trackRows?: boolean;
  /** Default `arrays`. */
  encoding?: BatchEncoding;
  /** Bytes to reserve per buffer (LeadBatch.bufferBytes of the previous batch), so the buffers need not grow. */
  bufferBytes?: readonly number[];
}

/**
 * A batch of normalised leads for writeLeads, encoded as it is filled: each lead's values are copied at
 * once into bytes (ArrayLiteralWriter per column, or CopyTextWriter), so neither the lead object nor its
 * strings outlive the young generation, and writing the batch
 * costs the JavaScript thread almost nothing (the import fills the next batch while one is written).
 * With trackRows, emails must be unique in a batch: `has` tells the caller, which counts later copies
 * as duplicates.
 */
export class LeadBatch {
  private readonly rowOf: Map<string, number> | undefined;
  private readonly columns: ArrayLiteralWriter[] = [];
  private readonly copy: CopyTextWriter | undefined;
  private count = 0;

  constructor(
    private readonly ids: Ids,
    private readonly addTags: readonly string[],
    options: LeadBatchOptions = {},
  ) {
    this.rowOf = options.trackRows === false ? undefined : new Map();
    const sizes = options.bufferBytes;
    if (options.encoding === 'copy') this.copy = new CopyTextWriter(reserved(sizes?.[0]));
    else this.columns = Array.from({ length: BATCH_COLUMNS }, (_, i) => new ArrayLiteralWriter(reserved(sizes?.[i])));
  }

  get size(): number {
    return this.count;
  }

  get encoding(): BatchEncoding {
    return this.copy ? 'copy' : 'arrays';
  }

  /** Whether the batch may hold an address more than once (rows not tracked). */
  get mayRepeat(): boolean {
    return this.rowOf === undefined;
  }

  /** Whether the batch holds this address already; always false when rows are not tracked. */
  has(email: string): boolean {
    return this.rowOf?.has(email) ?? false;
  }

  add(row: number, lead: LeadFields): void {
    this.count += 1;
    this.rowOf?.set(lead.email, row);
    const tags = this.addTags.length === 0 && lead.tags.length < 2 ? lead.tags : [...new Set([...lead.tags, ...this.addTags])];
    // A COPY row starts with its place in the batch: the insert keeps the first copy of an address.
    this.copy?.integer(this.count);
    this.put(0, this.ids.make('lead'));
    this.put(1, lead.email);
    this.put(2, lead.first_name);
    this.put(3, lead.last_name);
    this.put(4, lead.company);
    this.put(5, lead.title);
    this.put(6, lead.phone);
    this.put(7, lead.website);
    this.put(8, lead.linkedin_url);
    this.put(9, lead.timezone);
    // Tags are an array literal inside the column's literal; custom fields JSON text, cast per row.
    // The address's hash (for the suppression list) is computed by the insert itself: sha256 here
    // was a tenth of the thread's time per row.
    this.put(10, tags.length === 0 ? '{}' : arrayLiteral(tags));
    this.put(11, isEmpty(lead.custom_fields) ? '{}' : JSON.stringify(lead.custom_fields));
    this.copy?.endRow();
  }

  private put(column: number, value: string | null): void {
    if (this.copy) this.copy.field(value);
    else this.columns[column].push(value);
  }

  /** One text[] literal per column, in BATCH_COLUMNS order (`arrays` only). */
  literals(): string[] {
    if (this.copy) throw new Error('LeadBatch: not encoded as arrays');
    return this.columns.map((column) => column.toString());
  }

  /** The rows in COPY text format (`copy` only): a view of the batch's buffer. */
  copyText(): Buffer {
    if (!this.copy) throw new Error('LeadBatch: not encoded for COPY');
    return this.copy.view();
  }

  /** Each buffer's encoded size so far, for the next batch's LeadBatchOptions.bufferBytes. */
  bufferBytes(): number[] {
    return this.copy ? [this.copy.bytes] : this.columns.map((column) => column.bytes);
  }

  /** The row numbers of the batch by email (trackRows only). */
  rows(): Map<string, number> {
    if (!this.rowOf) throw new Error('LeadBatch: rows were not tracked');
    return new Map(this.rowOf);
  }
}

/** Room for a column about the size of the previous batch's (an eighth more, so that most batches fit). */
function reserved(previousBytes: number | undefined): number | undefined {
  return previousBytes === undefined ? undefined : Math.ceil(previousBytes * 1.125) + 1024;
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
  /** The database written to: a `copy` batch is written on PostgreSQL only. */
  database?: Database['kind'];
}

/** writeLeadBatch for a LeadBatch built by the caller; the row numbers come back by outcome. */
export async function writeLeads(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>): Promise<BatchOutcome> {
  if (batch.size === 0) return { created: [], updated: [], skipped: [] };
  if (batch.encoding === 'copy') await stageCopiedBatch(q, batch, options.database);
  // The written rows come back by email (unique in the batch), matched to their row numbers here.
  const written = await query(q)<{ email: string; inserted: boolean }[]>`${insertBatch(q, workspaceId, batch, options)} returning email, (xmax = 0) as inserted`;
  return outcome(batch.rows(), written);
}

/** writeLeads when only the counts matter (an import run as a job): nothing comes back per row. */
export async function writeLeadCounts(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>): Promise<BatchCounts> {
  if (batch.size === 0) return { created: 0, updated: 0, skipped: 0 };
  const sql = query(q);
  if (batch.encoding === 'copy') await stageCopiedBatch(q, batch, options.database);
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

/**
 * The set-based insert of a batch (insert … select from unnest, or from the staged COPY rows, … on
 * conflict), without its returning clause.
 */
function insertBatch(q: Queryable, workspaceId: string, batch: LeadBatch, options: Omit<WriteOptions, 'addTags'>) {
  const sql = query(q);
  const conflict = options.onConflict === 'update'
    ? sql`on conflict (workspace_id, email) do update set
        first_name = coalesce(excluded.first_name, leads.first_name), last_name = coalesce(excluded.last_name, leads.last_name),
        company = coalesce(excluded.company, leads.company), title = coalesce(excluded.title, leads.title),
        phone = coalesce(excluded.phone, leads.phone), website = coalesce(excluded.website, leads.website),
        linkedin_url = coalesce(excluded.linkedin_url, leads.linkedin_url), timezone = coalesce(excluded.timezone, leads.timezone),
        tags = array(select distinct t from unnest(leads.tags || excluded.tags) as t order by t),
        custom_fields = leads.custom_fields || excluded.custom_fields, updated_at = excluded.updated_at`
    : sql`on conflict (workspace_id, email) do nothing`;
  // A batch that may repeat an address (rows not tracked): `skip` inserts the first copy and its
  // conflict clause leaves the later ones, as the rows come in batch order; `update` may touch a row
  // once per statement, so the first copy of each address is picked before.
  const firstCopies = batch.mayRepeat && options.onConflict === 'update';
  const source = batch.encoding === 'copy' ? stagedRows(q, firstCopies) : unnestedRows(q, batch, firstCopies);
  return sql`
    insert into leads (id, workspace_id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone,
                       tags, custom_fields, status, source_import_id, created_at, updated_at)
    select i.id, ${workspaceId}, i.email, i.first_name, i.last_name, i.company, i.title, i.phone, i.website, i.linkedin_url, i.timezone,
           i.tags::text[], i.custom_fields::jsonb,
           ${suppressedStatus(q, workspaceId)},
           ${options.importId}, ${options.now}, ${options.now}
    from ${source}
    ${conflict}`;
}

/** The batch's rows from its array literals, one text parameter each (postgres.js sends them as they are). */
function unnestedRows(q: Queryable, batch: LeadBatch, firstCopies: boolean) {
  const sql = query(q);
  const [id, email, firstName, lastName, company, title, phone, website, linkedinUrl, timezone, tags, customFields] = batch.literals();
  const columns = sql`unnest(
      ${id}::text[], ${email}::text[], ${firstName}::text[], ${lastName}::text[], ${company}::text[], ${title}::text[], ${phone}::text[],
      ${website}::text[], ${linkedinUrl}::text[], ${timezone}::text[], ${tags}::text[], ${customFields}::text[]
    )`;
  return firstCopies
    ? sql`(select distinct on (u.email) u.* from ${columns} with ordinality as u(id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields, n)
             order by u.email, u.n) as i`
    : sql`${columns} as i(id, email, first_name, last_name, company, title, phone, website, linkedin_url, timezone, tags, custom_fields)`;
}

/**
 * The staging table of COPY batches: a temporary table of the connection, emptied by each commit. A
 * batch is staged and inserted in one transaction, so no other batch sees its rows.
 */
const STAGING_TABLE = `create temp table if not exists lead_import_rows (n integer not null, id text not null, email text not null, first_name text,
  last_name text, company text, title text, phone text, website text, linkedin_url text, timezone text, tags text not null,
  custom_fields text not null) on commit delete rows`;

/** The staged rows of a `copy` batch, in batch order. */
function stagedRows(q: Queryable, firstCopies: boolean) {
  const sql = query(q);
  return firstCopies
    ? sql`(select distinct on (s.email) s.* from pg_temp.lead_import_rows s order by s.email, s.n) as i`
    : sql`(select * from pg_temp.lead_import_rows s order by s.n) as i`;
}

/**
 * Sends a `copy` batch with COPY … FROM STDIN into the connection's staging table (created on its
 * first use). Refused on any database but PostgreSQL (COPY through the socket kills the embedded
 * PGlite process) and outside a transaction (the rows live until the transaction commits).
 */
async function stageCopiedBatch(q: Queryable, batch: LeadBatch, database: Database['kind'] | undefined): Promise<void> {
  if (database !== 'postgres') throw new Error(`COPY FROM STDIN is used on PostgreSQL only, not on ${database ?? 'an unnamed database'}: through the socket it kills the embedded PGlite process`);
  if (!('savepoint' in q)) throw new Error('a COPY batch is staged inside a transaction');
  const sql = query(q);
  // Sent together with the COPY that follows (postgres.js pipelines a transaction's queries): one round trip.
  const created = sql.unsafe(STAGING_TABLE).execute();
  const stream = await sql`copy pg_temp.lead_import_rows from stdin`.writable();
  await created;
  const text = batch.copyText();
  // In parts, so each CopyData message postgres.js builds (a copy of the part) stays small. The last
  // part is waited for: with nothing left to write, end() calls the stream's final at once, which
  // sends CopyDone and frees the connection for the query below.
  for (let at = 0; at < text.length; at += COPY_PART_BYTES) {
    const part = text.subarray(at, at + COPY_PART_BYTES);
    if (at + COPY_PART_BYTES >= text.length) await new Promise<void>((resolve, reject) => stream.write(part, (error) => (error ? reject(error) : resolve())));
    else if (!stream.write(part)) await once(stream, 'drain');
  }
  stream.end();
  // postgres.js finishes the stream on the COPY's CommandComplete only: when the server refuses the
  // data after the last write (its ErrorResponse answers the CopyDone), the stream is dropped and
  // never finishes, and the transaction sat aborted on its connection for good. A query sent behind
  // the COPY is answered either way (refused, once the transaction is aborted), so the batch always settles.
  const ended = finished(stream);
  ended.catch(() => {});
  await copyAnswered(sql);
  await ended;
}

async function copyAnswered(sql: ReturnType<typeof query>): Promise<void> {
  for (;;) {
    try {
      await sql`select 1`;
      return;
    } catch (error) {
      // A Node whose streams call final a turn after end(): the COPY is still open on the connection.
      if ((error as { code?: unknown }).code === 'COPY_IN_PROGRESS') await yieldToIo();
      else throw new Error('PostgreSQL refused the COPY of a lead batch (a value it cannot store)', { cause: error });
    }
  }
}

const COPY_PART_BYTES = 64 * 1024;

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
