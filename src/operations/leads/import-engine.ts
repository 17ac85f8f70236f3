// The engine of a lead import (work in progress for issue 13: not yet behind an operation). It reads
// items (JSON rows or CSV rows, already numbered), normalises each, and writes them a batch at a
// time: in one transaction per batch, the leads (set-based), the rows' errors, and the import's counts
// with its checkpoint (`rows_done`). A resumed import skips the rows already done, so after a crash
// every row is written and counted exactly once. Memory is one batch, whatever the file size.
import type { TransactionSql } from 'postgres';
import { addImportBatch, insertImportErrors, writeLeadBatch, type LeadFields, type NewImportError } from '../../data/leads.ts';
import type { Deps } from '../../deps.ts';
import { applyColumnMap, normalizeLead, planColumns, type ColumnPlan, type FieldError } from '../../leads/lead-fields.ts';
import { readCsvRows, type CsvItem } from '../../leads/csv-rows.ts';

/** One row of an import, numbered from 1: the fields to normalise, or why the row could not be read. */
export type ImportItem =
  | { row: number; line?: number; input: Record<string, unknown> }
  | { row: number; line?: number; errors: Array<Omit<FieldError, 'value'> & { value?: string }> };

export interface ImportCounts {
  total: number;
  created: number;
  updated: number;
  skipped_duplicate: number;
  invalid: number;
}

export interface ImportTarget {
  workspaceId: string;
  importId: string;
  onConflict: 'skip' | 'update';
  tags: string[];
}

export const BATCH_SIZE = 5_000;

export type RowResult = { row: number; result: 'created' | 'updated' | 'skipped_duplicate' | 'invalid' };

export async function* jsonItems(rows: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<ImportItem> {
  let row = 0;
  for await (const value of rows as AsyncIterable<unknown>) {
    row += 1;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { row, errors: [{ column: '', code: 'row_not_object', message: 'each row is a JSON object of lead fields' }] };
    } else yield { row, input: value as Record<string, unknown> };
  }
}

/** CSV rows as import items: the header planned once (column_map, aliases), every row mapped with it. */
export async function* csvItems(source: AsyncIterable<Uint8Array | string>, columnMap: Record<string, string> | undefined, onPlan?: (plan: ColumnPlan) => void): AsyncGenerator<ImportItem> {
  let plan: ColumnPlan | undefined;
  for await (const item of readCsvRows(source) as AsyncGenerator<CsvItem>) {
    if ('header' in item) {
      const planned = planColumns(item.header, columnMap);
      if ('errors' in planned) throw new ColumnPlanError(planned.errors);
      plan = planned.plan;
      onPlan?.(plan);
      continue;
    }
    if ('error' in item) yield { row: item.row, line: item.line, errors: [{ column: '', code: item.error.code, message: item.error.message }] };
    else yield { row: item.row, line: item.line, input: applyColumnMap(item.record, plan as ColumnPlan) };
  }
}

/** The CSV's header cannot be mapped (no email column, a bad column_map): the whole file is refused. */
export class ColumnPlanError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.column}: ${e.message}`).join('; '));
    this.name = 'ColumnPlanError';
  }
}

/**
 * Writes `items` after skipping the first `skipRows` (already done by an earlier run). Calls
 * `between()` before each batch (cancellation checks, progress). Returns the counts of this run.
 */
export async function runImport(
  deps: Deps,
  target: ImportTarget,
  items: AsyncIterable<ImportItem>,
  options: { skipRows?: number; batchSize?: number; between?: (done: number) => Promise<void>; onResults?: (results: RowResult[]) => void } = {},
): Promise<ImportCounts> {
  const size = options.batchSize ?? BATCH_SIZE;
  const skip = options.skipRows ?? 0;
  const counts: ImportCounts = { total: 0, created: 0, updated: 0, skipped_duplicate: 0, invalid: 0 };
  let batch: ImportItem[] = [];
  let lastRow = skip;
  const flush = async () => {
    if (batch.length === 0) return;
    await options.between?.(lastRow);
    const { counts: result, rows } = await deps.db.sql.begin((tx) => writeBatch(deps, tx, target, batch, lastRow));
    for (const key of Object.keys(counts) as Array<keyof ImportCounts>) counts[key] += result[key];
    options.onResults?.(rows);
    batch = [];
  };
  for await (const item of items) {
    if (item.row <= skip) continue;
    batch.push(item);
    lastRow = item.row;
    if (batch.length >= size) await flush();
  }
  await flush();
  return counts;
}

async function writeBatch(deps: Deps, tx: TransactionSql, target: ImportTarget, items: ImportItem[], lastRow: number): Promise<{ counts: ImportCounts; rows: RowResult[] }> {
  const errors: NewImportError[] = [];
  const leads = new Map<string, { row: number; lead: LeadFields }>();
  const duplicateRows: number[] = [];
  let duplicatesInBatch = 0;
  for (const item of items) {
    if ('errors' in item) {
      for (const e of item.errors) errors.push({ row: item.row, line: item.line ?? null, column: e.column || null, value: e.value ?? null, code: e.code, message: e.message });
      continue;
    }
    const normalized = normalizeLead(item.input);
    if ('errors' in normalized) {
      for (const e of normalized.errors) errors.push({ row: item.row, line: item.line ?? null, column: e.column, value: e.value, code: e.code, message: e.message });
      continue;
    }
    // A second copy of an address in one batch is a duplicate of the first (a later batch finds it written).
    if (leads.has(normalized.lead.email)) {
      duplicatesInBatch += 1;
      duplicateRows.push(item.row);
    } else leads.set(normalized.lead.email, { row: item.row, lead: normalized.lead });
  }
  const written = await writeLeadBatch(tx, target.workspaceId, deps.ids, [...leads.values()], { onConflict: target.onConflict, importId: target.importId, addTags: target.tags, now: deps.clock.now() });
  await insertImportErrors(tx, target.workspaceId, target.importId, errors);
  const invalidRows = new Set(errors.map((e) => e.row)).size;
  const counts: ImportCounts = {
    total: items.length,
    created: written.created.length,
    updated: written.updated.length,
    skipped_duplicate: written.skipped.length + duplicatesInBatch,
    invalid: invalidRows,
  };
  await addImportBatch(tx, target.workspaceId, target.importId, counts, lastRow, deps.clock.now());
  const rows: RowResult[] = [
    ...written.created.map((row) => ({ row, result: 'created' as const })),
    ...written.updated.map((row) => ({ row, result: 'updated' as const })),
    ...[...written.skipped, ...duplicateRows].map((row) => ({ row, result: 'skipped_duplicate' as const })),
    ...[...new Set(errors.map((e) => e.row))].map((row) => ({ row, result: 'invalid' as const })),
  ].sort((a, b) => a.row - b.row);
  return { counts, rows };
}
