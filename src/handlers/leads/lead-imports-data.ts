// The lead_imports table with its payloads (lead_import_payloads) and row errors (lead_import_errors):
// an import's options, counts and checkpoint. Tenant rows: every function takes the workspace id right
// after the queryable.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

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
  fields: {
    status: ImportStatus;
    source: ImportRow['source'];
    sourceUrl: string | null;
    onConflict: ImportRow['on_conflict'];
    columnMap: Record<string, string>;
    tags: string[];
    createdBy: string | null;
    now: Date;
  },
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
  const [row] = await query(q)<
    ImportRow[]
  >`select ${importColumns(q)} from lead_imports where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function setImportStatus(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: { status: ImportStatus; errorMessage?: string | null; now: Date },
): Promise<ImportRow | undefined> {
  const finished = ['completed', 'completed_with_errors', 'failed', 'cancelled'].includes(fields.status);
  const [row] = await query(q)<ImportRow[]>`
    update lead_imports set status = ${fields.status}, error_message = ${fields.errorMessage ?? null}, updated_at = ${fields.now},
      finished_at = ${finished ? fields.now : null}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${importColumns(q)}`;
  return row;
}

export async function storeImportPayload(
  q: Queryable,
  workspaceId: string,
  importId: string,
  content: string,
): Promise<void> {
  await query(
    q,
  )`insert into lead_import_payloads (import_id, workspace_id, content) values (${importId}, ${workspaceId}, ${content})`;
}

export async function readImportPayload(
  q: Queryable,
  workspaceId: string,
  importId: string,
): Promise<string | undefined> {
  const [row] = await query(q)<
    { content: string }[]
  >`select content from lead_import_payloads where import_id = ${importId} and workspace_id = ${workspaceId}`;
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

export function listImportErrors(
  q: Queryable,
  workspaceId: string,
  importId: string,
  page: { limit: number; after?: { row: number; seq: number }; rows?: number[] },
): Promise<ImportErrorRow[]> {
  const sql = query(q);
  return sql<ImportErrorRow[]>`
    select row, seq, line, "column", value, code, message from lead_import_errors
    where workspace_id = ${workspaceId} and import_id = ${importId}
      ${page.rows ? sql`and row = any(${sql.array(page.rows)}::int[])` : sql``}
      ${page.after ? sql`and (row, seq) > (${page.after.row}, ${page.after.seq})` : sql``}
    order by row, seq
    limit ${page.limit}`;
}

export interface ImportCountsDelta {
  total: number;
  created: number;
  updated: number;
  skipped_duplicate: number;
  invalid: number;
}

/**
 * Adds a batch's counts and moves the checkpoint `rows_done` from `rows.from` to `rows.to`; false
 * (nothing changed) when the checkpoint is not at `rows.from`, that is when another run got there first.
 */
export async function addImportBatch(
  q: Queryable,
  workspaceId: string,
  importId: string,
  delta: ImportCountsDelta,
  rows: { from: number; to: number },
  now: Date,
): Promise<boolean> {
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
export async function insertImportErrors(
  q: Queryable,
  workspaceId: string,
  importId: string,
  errors: NewImportError[],
): Promise<void> {
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
