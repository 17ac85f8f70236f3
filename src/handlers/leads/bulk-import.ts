// bulk_import_leads: rows (JSON objects), csv (text) or csv_url. Up to SYNC_LIMIT rows are imported
// in the request and answered with each row's result; more, and every csv_url, become an operation
// whose job streams the source and writes it in batches (import-engine.ts), resuming after a crash
// from the import's checkpoint. Any member of the workspace may import.
import { z } from 'zod';
import { dropImportPayload, findImport, type ImportErrorRow, type ImportRow, type ImportStatus, insertImport, listImportErrors, readImportPayload, setImportStatus, storeImportPayload } from './lead-imports-data.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { CsvFileError } from './csv-rows.ts';
import { hasUnstorableCharacter, storable } from './lead-fields.ts';
import { OutboundError, outboundApiError } from '../../outbound/outbound-error.ts';
import { checkUserUrl } from '../../outbound/user-url.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { defineOperationJob, OperationCancelled, RunSuperseded, startOperation, type OperationJobKind } from '../operations/operation-job.ts';
import { ColumnPlanError, csvItems, jsonItems, runImport, type ImportItem, type RowResult } from './import-engine.ts';
import { importBody } from './wire.ts';

export const SYNC_LIMIT = 1_000;
const CSV_MAX_BYTES = 2 * 1024 * 1024 * 1024;

export interface BulkImportRequest {
  rows?: unknown[];
  csv?: string;
  csvUrl?: string;
  onConflict?: 'skip' | 'update';
  columnMap?: Record<string, string>;
  tags?: string[];
}

export type BulkImportOutcome =
  | { kind: 'completed'; import: ImportRow; results: Array<RowResult & { errors?: ImportErrorRow[] }> }
  | { kind: 'started'; operation: OperationRow };

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The problem a source that cannot be read ends with (the whole file refused, not one row). */
function sourceProblem(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof ColumnPlanError) {
    return new ApiError('validation_failed', `The CSV header cannot be mapped: ${error.message}.`, { errors: error.errors.map((e) => ({ field: `column_map.${e.column}`, code: e.code, message: e.message })) });
  }
  if (error instanceof CsvFileError) return new ApiError('unprocessable', `The CSV cannot be read: ${storable(error.message)}.`, { errors: [{ field: 'csv', code: error.code, message: storable(error.message) }] });
  if (error instanceof OutboundError) return outboundApiError(error, 'csv_url');
  return undefined;
}

const finalStatus = (row: { invalid: number }): ImportStatus => (row.invalid > 0 ? 'completed_with_errors' : 'completed');

async function finish(deps: Deps, actor: { workspaceId: string }, importId: string, status: ImportStatus, errorMessage: string | null, eventActorRef: Parameters<typeof recordEvent>[3]): Promise<ImportRow> {
  return deps.db.sql.begin(async (tx) => {
    const row = (await setImportStatus(tx, actor.workspaceId, importId, { status, errorMessage, now: deps.clock.now() })) as ImportRow;
    await dropImportPayload(tx, actor.workspaceId, importId);
    if (status === 'completed' || status === 'completed_with_errors') await recordEvent(deps, tx, actor.workspaceId, eventActorRef, 'lead_import.completed', importBody(row));
    return row;
  });
}

export async function bulkImportLeads(deps: Deps, actor: Actor, request: BulkImportRequest): Promise<BulkImportOutcome> {
  const given = [request.rows !== undefined, request.csv !== undefined, request.csvUrl !== undefined].filter(Boolean).length;
  if (given !== 1) {
    throw new ApiError('validation_failed', 'Give exactly one of rows, csv and csv_url.', { errors: [{ field: 'body', code: 'one_source', message: 'exactly one of rows, csv, csv_url' }] });
  }
  checkStorable(request);
  const source: ImportRow['source'] = request.rows !== undefined ? 'rows' : request.csv !== undefined ? 'csv' : 'csv_url';
  const csvUrl = request.csvUrl === undefined ? null : checkUserUrl(request.csvUrl, { allowPrivate: deps.config.outbound.allowPrivate, field: 'csv_url' }).href;
  const fields = { source, sourceUrl: csvUrl, onConflict: request.onConflict ?? 'skip', columnMap: request.columnMap ?? {}, tags: request.tags ?? [], createdBy: actor.userId } as const;

  // Small inline sources are imported now; the count of a CSV is known after reading at most SYNC_LIMIT + 1 rows.
  let small: ImportItem[] | undefined;
  if (request.rows !== undefined && request.rows.length <= SYNC_LIMIT) small = await collect(jsonItems(request.rows), SYNC_LIMIT);
  if (request.csv !== undefined) {
    try {
      small = await collect(csvItems(once(request.csv), request.columnMap), SYNC_LIMIT);
    } catch (error) {
      throw sourceProblem(error) ?? error;
    }
  }
  if (small) {
    const created = await insertImport(deps.db.sql, actor.workspaceId, deps.ids, { ...fields, status: 'processing', now: deps.clock.now() });
    const results: RowResult[] = [];
    const counts = await runImport(deps, { workspaceId: actor.workspaceId, importId: created.id, onConflict: fields.onConflict, tags: fields.tags }, (async function* () {
      yield* small;
    })(), { onResults: (rows) => results.push(...rows) });
    const done = await finish(deps, actor, created.id, finalStatus(counts), null, eventActor(actor));
    const invalidRows = results.filter((r) => r.result === 'invalid').map((r) => r.row);
    const errors = invalidRows.length ? await listImportErrors(deps.db.sql, actor.workspaceId, created.id, { limit: 10_000, rows: invalidRows }) : [];
    return { kind: 'completed', import: done, results: results.map((r) => (r.result === 'invalid' ? { ...r, errors: errors.filter((e) => e.row === r.row) } : r)) };
  }
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const created = await insertImport(tx, actor.workspaceId, deps.ids, { ...fields, status: 'queued', now: deps.clock.now() });
    if (request.rows !== undefined) await storeImportPayload(tx, actor.workspaceId, created.id, JSON.stringify(request.rows));
    if (request.csv !== undefined) await storeImportPayload(tx, actor.workspaceId, created.id, csvPayload(request.csv));
    return startOperation(deps, tx, actor, { kind: deps.jobKinds.leadImport, input: { import_id: created.id }, resource: { type: 'lead_import', id: created.id } });
  });
  afterCommit();
  return { kind: 'started', operation: row };
}

/** Up to `limit` items, or undefined when there are more (the import then runs as a job). */
async function collect(items: AsyncIterable<ImportItem>, limit: number): Promise<ImportItem[] | undefined> {
  const out: ImportItem[] = [];
  for await (const item of items) {
    if (out.length >= limit) return undefined;
    out.push(item);
  }
  return out;
}

export function leadImportJob(deps: Deps): OperationJobKind<{ import_id: string }> {
  return defineOperationJob(deps, {
    name: 'leads.import',
    type: 'lead_import',
    input: z.object({ import_id: z.string() }),
    retry: { limit: 3, delaySeconds: 5, backoff: true },
    expireInSeconds: 60 * 60,
    async run({ import_id: importId }, work) {
      const { workspaceId } = work;
      const current = await findImport(deps.db.sql, workspaceId, importId);
      if (!current) throw new ApiError('not_found', `Lead import ${importId} is gone.`);
      // A retry of a run that did finish (it was presumed dead, yet alive) has nothing left to do.
      if (current.status !== 'queued' && current.status !== 'processing') return { resource: { type: 'lead_import', id: importId } };
      await setImportStatus(deps.db.sql, workspaceId, importId, { status: 'processing', now: deps.clock.now() });
      const target = { workspaceId, importId, onConflict: current.on_conflict, tags: current.tags };
      const progress = progressReporter(deps, work, importId);
      try {
        const items = await sourceItems(deps, current, work.job.signal);
        await runImport(deps, target, items, {
          skipRows: current.rows_done,
          between: async (done) => {
            await work.throwIfCancelled();
            progress.report(done);
          },
        });
        await progress.settled();
      } catch (error) {
        await progress.settled();
        const problem = sourceProblem(error);
        if (error instanceof OperationCancelled) {
          await finish(deps, work, importId, 'cancelled', 'Cancelled; the rows written before stay, and the counts say so.', { type: 'system', id: null });
          throw error;
        }
        if (problem) {
          await finish(deps, work, importId, 'failed', problem.message, { type: 'system', id: null });
          throw problem;
        }
        if (work.job.attempt > 3 && !(error instanceof RunSuperseded)) await finish(deps, work, importId, 'failed', 'The import failed on our side.', { type: 'system', id: null });
        throw error;
      }
      const row = (await findImport(deps.db.sql, workspaceId, importId)) as ImportRow;
      // The reports above run before each batch: the last batch is counted here, with the total now known.
      await work.progress(row.rows_done, row.rows_done);
      await finish(deps, work, importId, finalStatus(row), null, { type: 'system', id: null });
      return { resource: { type: 'lead_import', id: importId } };
    },
  });
}

/**
 * Progress is for watchers: its update (a commit of its own, 10–20 ms a batch on a loaded machine)
 * runs beside the next batch's write instead of before it, chained so that the updates land in order.
 */
function progressReporter(deps: Deps, work: { progress(done: number): Promise<void> }, importId: string) {
  let reported = Promise.resolve();
  return {
    report(done: number): void {
      reported = reported.then(() => work.progress(done)).catch((err: unknown) => deps.log.warn({ err, import_id: importId }, 'lead import progress not recorded'));
    },
    settled: () => reported,
  };
}

async function sourceItems(deps: Deps, row: ImportRow, signal: AbortSignal): Promise<AsyncIterable<ImportItem>> {
  if (row.source === 'csv_url') {
    const response = await deps.outbound.fetch(row.source_url as string, { accept: ['text/csv', 'text/plain', 'application/csv', 'application/octet-stream', 'application/vnd.ms-excel'], maxBytes: CSV_MAX_BYTES, timeoutMs: 60 * 60 * 1000, signal });
    if (!response.ok) {
      await response.cancel();
      throw new ApiError('url_fetch_failed', `${row.source_url}: the server answered ${response.status}.`);
    }
    return csvItems(response.chunks(), row.column_map);
  }
  const payload = await readImportPayload(deps.db.sql, row.workspace_id, row.id);
  if (payload === undefined) throw new ApiError('not_found', 'The import\'s rows are gone (it already finished).');
  if (row.source === 'rows') return jsonItems(JSON.parse(payload) as unknown[]);
  return csvItems(once(csvFromPayload(payload)), row.column_map);
}

/**
 * Inline CSV is kept as a JSON string: a NUL (which the import reports per row) cannot be stored in
 * text. A payload stored raw by an earlier version is never valid JSON (it has over a thousand lines,
 * and a JSON string holds no raw line break), so it is read as it is.
 */
const csvPayload = (csv: string) => JSON.stringify(csv);

function csvFromPayload(payload: string): string {
  if (!payload.startsWith('"')) return payload;
  try {
    return JSON.parse(payload) as string;
  } catch {
    return payload;
  }
}

/**
 * The options that apply to every row are refused as a whole when they hold a character that cannot be
 * stored (row values are reported per row by normalizeLead).
 */
function checkStorable(request: BulkImportRequest): void {
  const bad = [
    ...(request.tags ?? []).map((tag, i) => [`tags[${i}]`, tag] as const),
    ...Object.entries(request.columnMap ?? {}).flatMap(([key, target]) => [[`column_map`, key], [`column_map.${storable(key)}`, target]] as const),
  ].filter(([, value]) => typeof value === 'string' && hasUnstorableCharacter(value));
  if (bad.length === 0) return;
  throw new ApiError('validation_failed', 'A NUL or an unpaired surrogate cannot be stored.', {
    errors: bad.map(([field]) => ({ field, code: 'invalid_character', message: 'holds a NUL or an unpaired surrogate' })),
  });
}
