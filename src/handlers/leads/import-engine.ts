// The engine of a lead import. It reads
// items (JSON rows or CSV rows, already numbered: import-items.ts), normalises each, and writes them a batch at a
// time: in one transaction per batch, the leads (set-based), the rows' errors, and the import's counts
// with its checkpoint (`rows_done`). A resumed import skips the rows already done, so after a crash
// every row is written and counted exactly once. The next batch is read and normalised while the
// others are written (two at a time on PostgreSQL), so memory is a few batches, whatever the file size.
import * as timers from 'node:timers/promises';
import type { TransactionSql } from 'postgres';
import { addImportBatch, insertImportErrors } from './lead-imports-data.ts';
import { LeadBatch } from './lead-batch.ts';
import { type BatchOutcome, writeLeadCounts, writeLeads } from './lead-batch-data.ts';
import type { Deps } from '../../deps.ts';
import { RunSuperseded } from '../operations/operation-job.ts';
import { PreparedBatch } from './prepared-batch.ts';
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
 * While batches are written, the next one is read and normalised. On PostgreSQL a job writes two
 * batches at a time, each in its own transaction on its own connection, so the database works on one
 * while the other commits (see `writeDepth`); elsewhere one at a time. Checkpoints commit strictly in
 * order either way. A failed write (or `between`) stops the reading; a failed read waits for the
 * writes in progress before it is thrown.
 */
export async function runImport(
  deps: Deps,
  target: ImportTarget,
  items: AsyncIterable<ImportItem | readonly ImportItem[]>,
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
  // A job wants counts alone, so its batches keep no row per address (LeadBatchOptions.trackRows) and,
  // on PostgreSQL, go by COPY; each batch reserves what the one before it used, so its buffers are
  // allocated once.
  const trackRows = options.onResults !== undefined;
  const onPostgres = deps.db.kind === 'postgres';
  const depth = writeDepth(deps.db.kind, trackRows);
  const writes = new BatchWrites(depth);
  // The checkpoint as this run last committed it (progress), and where the last batch started ends.
  let committed = skip;
  let startedTo = skip;
  const write = async (batch: PreparedBatch, before: InFlight | undefined, from: number) => {
    await options.between?.(committed);
    // Two batches sharing an address would each wait on the other (one in PostgreSQL on the row, the
    // other here on the ordered checkpoint), and their order decides which copy is kept: never together.
    if (before && batch.mayShareAddressWith(before.batch)) await before.done;
    const { counts: result, rows } = await deps.db.sql.begin((tx) =>
      writeBatch(deps, tx, target, batch, { from, after: before?.done }, trackRows),
    );
    committed = batch.lastRow;
    for (const key of Object.keys(counts) as Array<keyof ImportCounts>) counts[key] += result[key];
    options.onResults?.(rows);
  };
  const start = async (batch: PreparedBatch) => {
    const before = await writes.room();
    const from = startedTo;
    startedTo = batch.lastRow;
    writes.add(batch, write(batch, before, from));
  };
  const newBatch = (previous?: PreparedBatch) =>
    new PreparedBatch(
      new LeadBatch(deps.ids, target.tags, {
        trackRows,
        encoding: !trackRows && onPostgres ? 'copy' : 'arrays',
        bufferBytes: previous?.leads.bufferBytes(),
      }),
      depth > 1,
    );
  let batch = newBatch();
  try {
    // Items one at a time or in groups (csvItemGroups): a step of an async generator per row was a
    // tenth of the import's thread.
    for await (const next of items) {
      for (const item of isGroup(next) ? next : [next]) {
        if (writes.failed) break;
        if (item.row <= skip) continue;
        batch.add(item);
        if (batch.total % YIELD_EVERY === 0) await timers.setImmediate();
        if (batch.total >= size) {
          await start(batch);
          batch = newBatch(batch);
        }
      }
      if (writes.failed) break;
    }
    if (!writes.failed && batch.total > 0) await start(batch);
  } catch (error) {
    // A failed write is what stopped the reading: settled() throws it.
    await writes.settled();
    throw error;
  }
  await writes.settled();
  return counts;
}

const isGroup = (next: ImportItem | readonly ImportItem[]): next is readonly ImportItem[] => Array.isArray(next);

/**
 * Batches written at once: two for a job on PostgreSQL, where each transaction has its own connection
 * and backend; one on PGlite (a single backend behind one connection) and for an import answered per
 * row (at most one batch).
 */
export function writeDepth(database: Deps['db']['kind'], trackRows: boolean): number {
  return database === 'postgres' && !trackRows ? 2 : 1;
}

interface InFlight {
  batch: PreparedBatch;
  /** Settles once the batch committed (or failed). */
  done: Promise<void>;
}

/** The batches being written, oldest first, at most `depth` of them. */
class BatchWrites {
  private readonly inFlight: InFlight[] = [];
  failed = false;

  constructor(private readonly depth: number) {}

  /** Waits until another batch may start; returns the batch still being written before it, if any. */
  async room(): Promise<InFlight | undefined> {
    while (this.inFlight.length >= this.depth) {
      await this.inFlight[0].done;
      this.inFlight.shift();
    }
    return this.inFlight.at(-1);
  }

  add(batch: PreparedBatch, done: Promise<void>): void {
    // Seen by the reading loop at once; the error itself is thrown by room() or settled().
    done.catch(() => (this.failed = true));
    this.inFlight.push({ batch, done });
  }

  /** Waits for every write; throws the first failure (a later batch fails with its predecessor anyway). */
  async settled(): Promise<void> {
    let first: { error: unknown } | undefined;
    for (const { done } of this.inFlight.splice(0)) await done.catch((error: unknown) => (first ??= { error }));
    if (first) throw first.error;
  }
}

/** The import's checkpoint is not where this run left it: another run of the same import got ahead. */
export class ImportSuperseded extends RunSuperseded {
  constructor(importId: string) {
    super(`lead import ${importId}: another run moved its checkpoint first`);
    this.name = 'ImportSuperseded';
  }
}

async function writeBatch(
  deps: Deps,
  tx: TransactionSql,
  target: ImportTarget,
  batch: PreparedBatch,
  checkpoint: { from: number; after: Promise<void> | undefined },
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
  // The checkpoint moves in order: the batch before this one (still being written) commits first, and
  // if it fails, this one rolls back with it. This batch holds no address of that one (runImport), so
  // the wait cannot close a circle.
  await checkpoint.after;
  // Another run of this import (one presumed dead and retried, yet alive) moved the checkpoint first:
  // this batch rolls back and this run stops, so no row is written or counted twice.
  if (
    !(await addImportBatch(
      tx,
      target.workspaceId,
      target.importId,
      counts,
      { from: checkpoint.from, to: batch.lastRow },
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
