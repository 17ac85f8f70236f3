// Writing an import's leads a batch at a time with one set-based statement (insert … select … on
// conflict) from the batch's rows: unnested array parameters, or, for an import job on PostgreSQL, a
// staging table filled by COPY. The batch is encoded while it is filled (LeadBatch, lead-batch.ts), so
// writing it costs the import's thread little. The COPY path is no faster for the database (its insert
// is the cost); it is there for the service's memory: a batch as twelve array-literal strings, held by
// postgres.js until the statement was answered, reached V8's old generation (the benchmark's lead
// import memory row measures it).
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import * as timers from 'node:timers/promises';
import type { Database } from '../../db/connection.ts';
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import { LeadBatch } from './lead-batch.ts';
import { suppressedStatus } from './lead-suppressions-data.ts';
import type { LeadFields } from './leads-data.ts';

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
export async function writeLeads(
  q: Queryable,
  workspaceId: string,
  batch: LeadBatch,
  options: Omit<WriteOptions, 'addTags'>,
): Promise<BatchOutcome> {
  if (batch.size === 0) return { created: [], updated: [], skipped: [] };
  if (batch.encoding === 'copy') await stageCopiedBatch(q, batch, options.database);
  // The written rows come back by email (unique in the batch), matched to their row numbers here.
  const written = await query(q)<
    { email: string; inserted: boolean }[]
  >`${insertBatch(q, workspaceId, batch, options)} returning email, (xmax = 0) as inserted`;
  return outcome(batch.rows(), written);
}

/** writeLeads when only the counts matter (an import run as a job): nothing comes back per row. */
export async function writeLeadCounts(
  q: Queryable,
  workspaceId: string,
  batch: LeadBatch,
  options: Omit<WriteOptions, 'addTags'>,
): Promise<BatchCounts> {
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
  const conflict =
    options.onConflict === 'update'
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
  const [id, email, firstName, lastName, company, title, phone, website, linkedinUrl, timezone, tags, customFields] =
    batch.literals();
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
  if (database !== 'postgres')
    throw new Error(
      `COPY FROM STDIN is used on PostgreSQL only, not on ${database ?? 'an unnamed database'}: through the socket it kills the embedded PGlite process`,
    );
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
    if (at + COPY_PART_BYTES >= text.length)
      await new Promise<void>((resolve, reject) => stream.write(part, (error) => (error ? reject(error) : resolve())));
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
      if ((error as { code?: unknown }).code === 'COPY_IN_PROGRESS') await timers.setImmediate();
      else throw new Error('PostgreSQL refused the COPY of a lead batch (a value it cannot store)', { cause: error });
    }
  }
}

const COPY_PART_BYTES = 64 * 1024;

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
