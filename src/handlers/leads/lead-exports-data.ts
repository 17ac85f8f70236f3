// The lead_exports and lead_export_parts tables. Tenant rows: every function takes the workspace id
// right after the queryable, except the expiry sweep (across workspaces). Parts have no workspace
// column of their own: they are read and written only through their export, whose workspace is checked
// in the same statement.
import type { Ids } from '../../deps.ts';
import { leadColumns, leadConditions, type LeadRow, type LeadStage, type LeadStatus } from './leads-data.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type ExportStatus = 'queued' | 'processing' | 'ready' | 'failed' | 'cancelled' | 'expired';

/** The filters an export was asked for, as the contract names them. */
export interface ExportFilters {
  q?: string;
  status?: LeadStatus[];
  stage?: LeadStage[];
  tag?: string;
  import_id?: string;
  created_after?: string;
  created_before?: string;
}

export interface ExportRow {
  id: string;
  workspace_id: string;
  status: ExportStatus;
  filters: ExportFilters;
  row_count: number;
  size_bytes: number;
  parts: number;
  snapshot_at: Date | null;
  custom_field_keys: string[] | null;
  /** The checkpoint's time as the database prints it: exact to the microsecond, unlike a Date. */
  after_created_at: string | null;
  after_id: string | null;
  error_message: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

const exportColumns = (q: Queryable) => query(q)`
  id, workspace_id, status, filters, row_count, size_bytes::float8 as size_bytes, parts, snapshot_at, custom_field_keys,
  after_created_at::text as after_created_at, after_id, error_message, created_at, finished_at, expires_at`;

export async function insertExport(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: { filters: ExportFilters; createdBy: string | null; now: Date },
): Promise<ExportRow> {
  const sql = query(q);
  const [row] = await sql<ExportRow[]>`
    insert into lead_exports (id, workspace_id, status, filters, created_by, created_at, updated_at)
    values (${ids.make('lexp')}, ${workspaceId}, 'queued', ${sql.json(fields.filters as Record<string, string>)}, ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${exportColumns(q)}`;
  return row;
}

export async function findExport(q: Queryable, workspaceId: string, id: string): Promise<ExportRow | undefined> {
  const [row] = await query(q)<
    ExportRow[]
  >`select ${exportColumns(q)} from lead_exports where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

/** Locks the export's row for the rest of the transaction (one writer of its parts at a time). */
export async function lockExport(q: Queryable, workspaceId: string, id: string): Promise<ExportRow | undefined> {
  const [row] = await query(q)<
    ExportRow[]
  >`select ${exportColumns(q)} from lead_exports where id = ${id} and workspace_id = ${workspaceId} for update`;
  return row;
}

/** Starts (or restarts) the export: processing, and on the first start its snapshot time and header columns. */
export async function beginExport(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: { snapshotAt: Date; customFieldKeys: string[]; now: Date },
): Promise<ExportRow> {
  const sql = query(q);
  const [row] = await sql<ExportRow[]>`
    update lead_exports set status = 'processing', updated_at = ${fields.now},
      snapshot_at = coalesce(snapshot_at, ${fields.snapshotAt}),
      custom_field_keys = coalesce(custom_field_keys, ${sql.array(fields.customFieldKeys)}::text[])
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${exportColumns(q)}`;
  if (!row) throw new Error(`lead export ${id} is gone`);
  return row;
}

/** Appends one part and moves the checkpoint past its last lead, in the caller's transaction. */
export async function appendExportPart(
  q: Queryable,
  workspaceId: string,
  id: string,
  part: { content: string; bytes: number; rows: number; last?: { cursor_at: string; id: string }; now: Date },
): Promise<void> {
  const sql = query(q);
  const [updated] = await sql<{ parts: number }[]>`
    update lead_exports set parts = parts + 1, row_count = row_count + ${part.rows}, size_bytes = size_bytes + ${part.bytes},
      after_created_at = coalesce(${part.last?.cursor_at ?? null}::timestamptz, after_created_at),
      after_id = coalesce(${part.last?.id ?? null}::text, after_id), updated_at = ${part.now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning parts`;
  if (!updated) throw new Error(`lead export ${id} is gone`);
  await sql`insert into lead_export_parts (export_id, part, content) values (${id}, ${updated.parts - 1}, ${part.content})`;
}

export async function finishExport(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: { status: 'ready' | 'failed' | 'cancelled'; errorMessage?: string | null; expiresAt?: Date; now: Date },
): Promise<ExportRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ExportRow[]>`
    update lead_exports set status = ${fields.status}, error_message = ${fields.errorMessage ?? null}, finished_at = ${fields.now},
      updated_at = ${fields.now}, expires_at = ${fields.expiresAt ?? null}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${exportColumns(q)}`;
  if (row && fields.status !== 'ready') await sql`delete from lead_export_parts where export_id = ${id}`;
  return row;
}

/** The export's parts from `fromPart` on, a few at a time, in order (the download streams them). */
export async function readExportParts(
  q: Queryable,
  workspaceId: string,
  id: string,
  fromPart: number,
  count: number,
): Promise<Array<{ part: number; content: string }>> {
  return query(q)<Array<{ part: number; content: string }>>`
    select p.part, p.content from lead_export_parts p join lead_exports e on e.id = p.export_id
    where p.export_id = ${id} and e.workspace_id = ${workspaceId} and p.part >= ${fromPart}
    order by p.part limit ${count}`;
}

function conditions(q: Queryable, filters: ExportFilters) {
  return leadConditions(q, {
    q: filters.q,
    statuses: filters.status ?? [],
    stages: filters.stage ?? [],
    tag: filters.tag,
    importId: filters.import_id,
    createdAfter: filters.created_after === undefined ? undefined : new Date(filters.created_after),
    createdBefore: filters.created_before === undefined ? undefined : new Date(filters.created_before),
  });
}

/** How many leads the export will hold: those matching its filters, created up to the snapshot. */
export async function countExportLeads(
  q: Queryable,
  workspaceId: string,
  filters: ExportFilters,
  snapshotAt: Date,
): Promise<number> {
  const [{ n }] = await query(q)<{ n: number }[]>`
    select count(*)::int as n from leads where workspace_id = ${workspaceId} ${conditions(q, filters)} and created_at <= ${snapshotAt}`;
  return n;
}

/** The custom-field keys of the matching leads, sorted, at most `limit` (the header's extra columns). */
export async function exportCustomFieldKeys(
  q: Queryable,
  workspaceId: string,
  filters: ExportFilters,
  snapshotAt: Date,
  limit: number,
): Promise<string[]> {
  const rows = await query(q)<{ key: string }[]>`
    select distinct k.key from leads, jsonb_object_keys(leads.custom_fields) as k(key)
    where workspace_id = ${workspaceId} ${conditions(q, filters)} and created_at <= ${snapshotAt}
    order by k.key limit ${limit}`;
  return rows.map((r) => r.key);
}

/** The next leads of the export, oldest first, after the checkpoint; `cursor_at` is the exact created_at for the next checkpoint. */
export function exportLeadsPage(
  q: Queryable,
  workspaceId: string,
  filters: ExportFilters,
  snapshotAt: Date,
  after: { cursor_at: string; id: string } | undefined,
  limit: number,
): Promise<Array<LeadRow & { cursor_at: string }>> {
  const sql = query(q);
  return sql<Array<LeadRow & { cursor_at: string }>>`
    select ${leadColumns(q)}, created_at::text as cursor_at from leads
    where workspace_id = ${workspaceId} ${conditions(q, filters)} and created_at <= ${snapshotAt}
      ${after ? sql`and (created_at, id) > (${after.cursor_at}::timestamptz, ${after.id})` : sql``}
    order by created_at, id
    limit ${limit}`;
}

/** Marks ready exports past their expiry `expired` and deletes their parts; returns how many. */
export async function sweepExpiredExports(q: Queryable, now: Date): Promise<number> {
  const sql = query(q);
  const expired = await sql<{ id: string }[]>`
    update lead_exports set status = 'expired', updated_at = ${now}
    where status = 'ready' and expires_at <= ${now}
    returning id`;
  if (expired.length)
    await sql`delete from lead_export_parts where export_id = any(${sql.array(expired.map((e) => e.id))}::text[])`;
  return expired.length;
}
