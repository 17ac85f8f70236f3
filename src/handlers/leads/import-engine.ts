// The engine of a lead import. It reads
// items (JSON rows or CSV rows, already numbered: import-items.ts), normalises each, and writes them a batch at a
// time: in one transaction per batch, the leads (set-based), the rows' errors, and the import's counts
// with its checkpoint (`rows_done`). A resumed import skips the rows already done, so after a crash
// every row is written and counted exactly once. The next batch is read and normalised while one is
// written, so memory is two batches, whatever the file size.
import * as timers from 'node:timers/promises';
import type { TransactionSql } from 'postgres';
import { addImportBatch, insertImportErrors, type NewImportError } from './lead-imports-data.ts';
import { LeadBatch } from './lead-batch.ts';
import { type BatchOutcome, writeLeadCounts, writeLeads } from './lead-batch-data.ts';
import type { Deps } from '../../deps.ts';
import { RunSuperseded } from '../operations/operation-job.ts';
import { normalizeLead } from './lead-fields.ts';
import type { ImportItem } from './import-items.ts';

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

/**
 * Rows read between two turns of the event loop. A source whose data is already buffered is read in
 * microtasks alone, which would hold back the database's answers (BEGIN, the insert, COMMIT) of the
 * batch being written until the next batch is full: reading and writing would take turns instead of
 * overlapping (measured: each write took as long as the fill beside it).
 */
const YIELD_EVERY = 250;

export type RowResult = { row: number; result: 'created' | 'updated' | 'skipped_duplicate' | 'invalid' };

/**
 * Writes `items` after skipping the first `skipRows` (already done by an earlier run). Calls
 * `between(rowsCommitted)` before each batch (cancellation checks, progress). Returns the counts of this run.
 * Batches are written one after another, each committed before the next starts, while the next one is
 * read and normalised: at most one batch waits beside the one being written. A failed write (or
 * `between`) stops the reading; a failed read waits for the write in progress before it is thrown.
 */
export async function runImport(
  deps: Deps,
  target: ImportTarget,
  items: AsyncIterable<ImportItem>,
  options: {
    skipRows?: number;
    batchSize?: number;
    between?: (done: number) => Promise<void>;
    onResults?: (results: RowResult[]) => void;
  } = {},
): Promise<ImportCounts> {
  const size = options.batchSize ?? BATCH_SIZE;
  const skip = options.skipRows ?? 0;
  const counts: ImportCounts = { total: 0, created: 0, updated: 0, skipped_duplicate: 0, invalid: 0 };
  let writing: Promise<void> = Promise.resolve();
  let failed = false;
  // The checkpoint as this run last committed it: each batch moves it on only from there.
  let committed = skip;
  const write = async (batch: PreparedBatch) => {
    await options.between?.(committed);

    const { counts: result, rows } = await deps.db.sql.begin((tx) =>
      writeBatch(deps, tx, target, batch, committed, options.onResults !== undefined),
    );
    committed = batch.lastRow;
    for (const key of Object.keys(counts) as Array<keyof ImportCounts>) counts[key] += result[key];
    options.onResults?.(rows);
  };
  const start = async (batch: PreparedBatch) => {
    await writing;
    writing = write(batch);
    // Seen by the reading loop at once; the error itself is thrown where `writing` is awaited.
    writing.catch(() => (failed = true));
  };
  // A job wants counts alone, so its batches keep no row per address (LeadBatchOptions.trackRows) and,
  // on PostgreSQL, go by COPY; each batch reserves what the one before it used, so its buffers are
  // allocated once.
  const trackRows = options.onResults !== undefined;
  const encoding = !trackRows && deps.db.kind === 'postgres' ? 'copy' : 'arrays';
  const newBatch = (previous?: PreparedBatch) =>
    new PreparedBatch(
      new LeadBatch(deps.ids, target.tags, { trackRows, encoding, bufferBytes: previous?.leads.bufferBytes() }),
    );
  let batch = newBatch();
  try {
    for await (const item of items) {
      if (failed) break;
      if (item.row <= skip) continue;
      batch.add(item);
      if (batch.total % YIELD_EVERY === 0) await timers.setImmediate();
      if (batch.total >= size) {
        await start(batch);
        batch = newBatch(batch);
      }
    }
  } catch (error) {
    await writing;
    throw error;
  }
  if (!failed && batch.total > 0) await start(batch);
  await writing;
  return counts;
}

/** The import's checkpoint is not where this run left it: another run of the same import got ahead. */
export class ImportSuperseded extends RunSuperseded {
  constructor(importId: string) {
    super(`lead import ${importId}: another run moved its checkpoint first`);
    this.name = 'ImportSuperseded';
  }
}

/** A batch normalised and encoded as its items arrive, so that neither raw rows nor lead objects are kept. */
class PreparedBatch {
  total = 0;
  lastRow = 0;
  readonly errors: NewImportError[] = [];
  readonly invalidRows: number[] = [];
  readonly duplicateRows: number[] = [];

  constructor(readonly leads: LeadBatch) {}

  add(item: ImportItem): void {
    this.total += 1;
    this.lastRow = item.row;
    const line = item.line ?? null;
    if ('errors' in item) {
      this.invalidRows.push(item.row);
      for (const e of item.errors)
        this.errors.push({
          row: item.row,
          line,
          column: e.column || null,
          value: e.value ?? null,
          code: e.code,
          message: e.message,
        });
      return;
    }
    const normalized = normalizeLead(item.input);
    if ('errors' in normalized) {
      this.invalidRows.push(item.row);
      for (const e of normalized.errors)
        this.errors.push({ row: item.row, line, column: e.column, value: e.value, code: e.code, message: e.message });
      return;
    }
    // A second copy of an address in one batch is a duplicate of the first (a later batch finds it written).
    if (this.leads.has(normalized.lead.email)) this.duplicateRows.push(item.row);
    else this.leads.add(item.row, normalized.lead);
  }
}

async function writeBatch(
  deps: Deps,
  tx: TransactionSql,
  target: ImportTarget,
  batch: PreparedBatch,
  rowsDoneBefore: number,
  withRows: boolean,
): Promise<{ counts: ImportCounts; rows: RowResult[] }> {
  const options = {
    onConflict: target.onConflict,
    importId: target.importId,
    now: deps.clock.now(),
    database: deps.db.kind,
  };
  // Per-row results are wanted only by a small import answered in the request; a job needs the counts.
  const written: BatchOutcome | undefined = withRows
    ? await writeLeads(tx, target.workspaceId, batch.leads, options)
    : undefined;
  const leadCounts = written
    ? { created: written.created.length, updated: written.updated.length, skipped: written.skipped.length }
    : await writeLeadCounts(tx, target.workspaceId, batch.leads, options);
  await insertImportErrors(tx, target.workspaceId, target.importId, batch.errors);
  const counts: ImportCounts = {
    total: batch.total,
    created: leadCounts.created,
    updated: leadCounts.updated,
    skipped_duplicate: leadCounts.skipped + batch.duplicateRows.length,
    invalid: batch.invalidRows.length,
  };
  // Another run of this import (one presumed dead and retried, yet alive) moved the checkpoint first:
  // this batch rolls back and this run stops, so no row is written or counted twice.
  if (
    !(await addImportBatch(
      tx,
      target.workspaceId,
      target.importId,
      counts,
      { from: rowsDoneBefore, to: batch.lastRow },
      deps.clock.now(),
    ))
  )
    throw new ImportSuperseded(target.importId);
  if (!written) return { counts, rows: [] };
  const rows: RowResult[] = [
    ...written.created.map((row) => ({ row, result: 'created' as const })),
    ...written.updated.map((row) => ({ row, result: 'updated' as const })),
    ...[...written.skipped, ...batch.duplicateRows].map((row) => ({ row, result: 'skipped_duplicate' as const })),
    ...batch.invalidRows.map((row) => ({ row, result: 'invalid' as const })),
  ].sort((a, b) => a.row - b.row);
  return { counts, rows };
}
