// The knowledge_sources and knowledge_chunks tables. Tenant rows: every function takes the workspace
// id right after the queryable. Searches read only a source's current generation (see 0008).
// Reading the chunks is knowledge-chunks-data.ts.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type SourceStatus = 'queued' | 'fetching' | 'ready' | 'failed';

export interface SourceRow {
  id: string;
  workspace_id: string;
  url: string;
  title: string | null;
  status: SourceStatus;
  max_pages: number;
  include_paths: string[];
  exclude_paths: string[];
  generation: number;
  pages_fetched: number;
  chunk_count: number;
  last_error: string | null;
  fetched_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const sourceColumns = (q: Queryable) => query(q)`
  id, workspace_id, url, title, status, max_pages, include_paths, exclude_paths, generation, pages_fetched, chunk_count,
  last_error, fetched_at, created_by, created_at, updated_at`;

export interface NewSource {
  url: string;
  maxPages: number;
  includePaths: string[];
  excludePaths: string[];
  createdBy: string | null;
  now: Date;
}

export async function insertSource(q: Queryable, workspaceId: string, ids: Ids, fields: NewSource): Promise<SourceRow> {
  const sql = query(q);
  const [row] = await sql<SourceRow[]>`
    insert into knowledge_sources (id, workspace_id, url, status, max_pages, include_paths, exclude_paths, created_by, created_at, updated_at)
    values (${ids.make('ks')}, ${workspaceId}, ${fields.url}, 'queued', ${fields.maxPages}, ${sql.array(fields.includePaths)},
            ${sql.array(fields.excludePaths)}, ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${sourceColumns(q)}`;
  return row;
}

/** Which of `ids` name sources of the workspace, in one statement (a search's source filter). */
export async function knownSourceIds(q: Queryable, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const sql = query(q);
  const rows = await sql<{ id: string }[]>`
    select id from knowledge_sources where workspace_id = ${workspaceId} and id = any(${sql.array(ids)}::text[])`;
  return new Set(rows.map((row) => row.id));
}

export async function findSource(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SourceRow | undefined> {
  const sql = query(q);
  const [row] = await sql<SourceRow[]>`
    select ${sourceColumns(q)} from knowledge_sources where id = ${id} and workspace_id = ${workspaceId}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export function listSources(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound },
): Promise<SourceRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<SourceRow[]>`
    select ${sourceColumns(q)} from knowledge_sources
    where workspace_id = ${workspaceId}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/**
 * queued for a refresh; undefined when a fetch is already queued or running. A fetch untouched for
 * longer than `abandonedBefore` is taken as dead (its job ran out of retries or its worker died for
 * good), so the source is never stuck.
 */
export async function queueRefresh(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
  abandonedBefore: Date,
): Promise<SourceRow | undefined> {
  const [row] = await query(q)<SourceRow[]>`
    update knowledge_sources set status = 'queued', updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
      and (status in ('ready', 'failed') or updated_at < ${abandonedBefore})
    returning ${sourceColumns(q)}`;
  return row;
}

export async function markFetching(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<SourceRow | undefined> {
  const [row] = await query(q)<SourceRow[]>`
    update knowledge_sources set status = 'fetching', updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${sourceColumns(q)}`;
  return row;
}

/** Drops chunks written for a generation that never became current (a crashed or failed fetch). */
export async function dropStagedChunks(
  q: Queryable,
  workspaceId: string,
  sourceId: string,
  current: number,
): Promise<void> {
  await query(
    q,
  )`delete from knowledge_chunks where workspace_id = ${workspaceId} and source_id = ${sourceId} and generation > ${current}`;
}

export interface NewChunk {
  pageUrl: string;
  pageTitle: string | null;
  headingPath: string[];
  position: number;
  text: string;
}

export async function insertChunks(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  sourceId: string,
  generation: number,
  chunks: NewChunk[],
): Promise<void> {
  if (chunks.length === 0) return;
  const sql = query(q);
  // One statement per page: unnest keeps it a single round trip whatever the page's chunk count.
  await sql`
    insert into knowledge_chunks (id, workspace_id, source_id, generation, page_url, page_title, heading_path, headings, position, text)
    select id, ${workspaceId}, ${sourceId}, ${generation}, page_url, page_title, string_to_array(heading_path, chr(31)), replace(heading_path, chr(31), ' '), position, text
    from unnest(${sql.array(chunks.map(() => ids.make('kc')))}::text[], ${sql.array(chunks.map((c) => c.pageUrl))}::text[],
                ${sql.array(chunks.map((c) => c.pageTitle ?? ''))}::text[], ${sql.array(chunks.map((c) => c.headingPath.join('\u001f')))}::text[],
                ${sql.array(chunks.map((c) => c.position))}::int[], ${sql.array(chunks.map((c) => c.text))}::text[])
      as t(id, page_url, page_title, heading_path, position, text)`;
}

/**
 * Makes `generation` the source's content in one step: the source switches to it and every other
 * generation's chunks go, so a search sees the old content or the new, never a mix.
 */
export async function publishGeneration(
  q: Queryable,
  workspaceId: string,
  sourceId: string,
  fields: { generation: number; title: string | null; pagesFetched: number; now: Date },
): Promise<SourceRow | undefined> {
  const sql = query(q);
  const [row] = await sql<SourceRow[]>`
    update knowledge_sources set generation = ${fields.generation}, status = 'ready', title = coalesce(${fields.title}, title),
      pages_fetched = ${fields.pagesFetched}, last_error = null, fetched_at = ${fields.now}, updated_at = ${fields.now},
      chunk_count = (select count(*)::int from knowledge_chunks where source_id = ${sourceId} and generation = ${fields.generation})
    where id = ${sourceId} and workspace_id = ${workspaceId}
    returning ${sourceColumns(q)}`;
  if (row)
    await sql`delete from knowledge_chunks where workspace_id = ${workspaceId} and source_id = ${sourceId} and generation <> ${fields.generation}`;
  return row;
}

/** The fetch failed: the last good generation stays searchable; the staged one goes. */
export async function markSourceFailed(
  q: Queryable,
  workspaceId: string,
  sourceId: string,
  error: string,
  now: Date,
): Promise<SourceRow | undefined> {
  const sql = query(q);
  const [row] = await sql<SourceRow[]>`
    update knowledge_sources set status = 'failed', last_error = ${error}, updated_at = ${now}
    where id = ${sourceId} and workspace_id = ${workspaceId}
    returning ${sourceColumns(q)}`;
  if (row) await dropStagedChunks(q, workspaceId, sourceId, row.generation);
  return row;
}

export async function deleteSource(q: Queryable, workspaceId: string, id: string): Promise<SourceRow | undefined> {
  const [row] = await query(q)<SourceRow[]>`
    delete from knowledge_sources where id = ${id} and workspace_id = ${workspaceId}
    returning ${sourceColumns(q)}`;
  return row;
}

/** The workspace's sources that are ready (have text to search), oldest first. */
export function readySourceIds(q: Queryable, workspaceId: string): Promise<{ id: string }[]> {
  return query(q)<
    { id: string }[]
  >`select id from knowledge_sources where workspace_id = ${workspaceId} and status = 'ready' order by created_at, id`;
}
