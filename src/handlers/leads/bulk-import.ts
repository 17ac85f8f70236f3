// The job of bulk_import_leads (bulk-import-leads.ts), and the steps it shares with the operation's
// in-request import: it streams the source and writes it in batches (import-engine.ts), resuming after
// a crash from the import's checkpoint.
import { z } from 'zod';
import {
  dropImportPayload,
  findImport,
  readImportPayload,
  setImportStatus,
  type ImportRow,
  type ImportStatus,
} from './lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { CsvFileError } from './csv-file-error.ts';
import { storable } from './lead-fields.ts';
import { OutboundError, outboundApiError } from '../../outbound/outbound-error.ts';
import { recordEvent } from '../events/record-event.ts';
import {
  defineOperationJob,
  OperationCancelled,
  RunSuperseded,
  type OperationJobKind,
} from '../operations/operation-job.ts';
import { runImport } from './import-engine.ts';
import { ColumnPlanError, csvItemGroups, jsonItems, type ImportItem } from './import-items.ts';
import { importBody } from './wire.ts';

const CSV_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** An inline CSV as a source of one chunk. */
export async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The problem a source that cannot be read ends with (the whole file refused, not one row). */
export function sourceProblem(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof ColumnPlanError) {
    return new ApiError('validation_failed', `The CSV header cannot be mapped: ${error.message}.`, {
      errors: error.errors.map((e) => ({ field: `column_map.${e.column}`, code: e.code, message: e.message })),
    });
  }
  if (error instanceof CsvFileError)
    return new ApiError('unprocessable', `The CSV cannot be read: ${storable(error.message)}.`, {
      errors: [{ field: 'csv', code: error.code, message: storable(error.message) }],
    });
  if (error instanceof OutboundError) return outboundApiError(error, 'csv_url');
  return undefined;
}

export const finalStatus = (row: { invalid: number }): ImportStatus =>
  row.invalid > 0 ? 'completed_with_errors' : 'completed';

/** Ends the import with `status`: its payload goes, and a completed import records lead_import.completed. */
export async function finish(
  deps: Deps,
  actor: { workspaceId: string },
  importId: string,
  status: ImportStatus,
  errorMessage: string | null,
  eventActorRef: Parameters<typeof recordEvent>[3],
): Promise<ImportRow> {
  return deps.db.sql.begin(async (tx) => {
    const row = await setImportStatus(tx, actor.workspaceId, importId, { status, errorMessage, now: deps.clock.now() });
    if (!row) throw new Error(`lead import ${importId} is gone`);
    await dropImportPayload(tx, actor.workspaceId, importId);
    if (status === 'completed' || status === 'completed_with_errors')
      await recordEvent(deps, tx, actor.workspaceId, eventActorRef, 'lead_import.completed', importBody(row));
    return row;
  });
}

/** Reads a bulk_import_leads file into the leads table, followed by the operation it started. */
export const bulkImportLeadsJob: OperationJobKind<{ import_id: string }> = defineOperationJob({
  name: 'leads.import',
  type: 'lead_import',
  input: z.object({ import_id: z.string() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  async run({ import_id: importId }, work, deps) {
    const { workspaceId } = work;
    const current = await findImport(deps.db.sql, workspaceId, importId);
    if (!current) throw new ApiError('not_found', `Lead import ${importId} is gone.`);
    // A retry of a run that did finish (it was presumed dead, yet alive) has nothing left to do.
    if (current.status !== 'queued' && current.status !== 'processing')
      return { resource: { type: 'lead_import', id: importId } };
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
        await finish(
          deps,
          work,
          importId,
          'cancelled',
          'Cancelled; the rows written before stay, and the counts say so.',
          { type: 'system', id: null },
        );
        throw error;
      }
      if (problem) {
        await finish(deps, work, importId, 'failed', problem.message, { type: 'system', id: null });
        throw problem;
      }
      if (work.job.attempt > 3 && !(error instanceof RunSuperseded))
        await finish(deps, work, importId, 'failed', 'The import failed on our side.', { type: 'system', id: null });
      throw error;
    }
    const row = await findImport(deps.db.sql, workspaceId, importId);
    if (!row) throw new Error(`lead import ${importId} is gone`);
    // The reports above run before each batch: the last batch is counted here, with the total now known.
    await work.progress(row.rows_done, row.rows_done);
    await finish(deps, work, importId, finalStatus(row), null, { type: 'system', id: null });
    return { resource: { type: 'lead_import', id: importId } };
  },
});

/**
 * Progress is for watchers: its update (a commit of its own, 10–20 ms a batch on a loaded machine)
 * runs beside the next batch's write instead of before it, chained so that the updates land in order.
 */
function progressReporter(deps: Deps, work: { progress(done: number): Promise<void> }, importId: string) {
  let reported = Promise.resolve();
  return {
    report(done: number): void {
      reported = reported
        .then(() => work.progress(done))
        .catch((err: unknown) => deps.log.warn({ err, import_id: importId }, 'lead import progress not recorded'));
    },
    settled: () => reported,
  };
}

async function sourceItems(
  deps: Deps,
  row: ImportRow,
  signal: AbortSignal,
): Promise<AsyncIterable<ImportItem | ImportItem[]>> {
  if (row.source === 'csv_url') {
    const response = await deps.outbound.fetch(row.source_url as string, {
      accept: ['text/csv', 'text/plain', 'application/csv', 'application/octet-stream', 'application/vnd.ms-excel'],
      maxBytes: CSV_MAX_BYTES,
      timeoutMs: 60 * 60 * 1000,
      signal,
    });
    if (!response.ok) {
      await response.cancel();
      throw new ApiError('url_fetch_failed', `${row.source_url}: the server answered ${response.status}.`);
    }
    return csvItemGroups(response.chunks(), row.column_map);
  }
  const payload = await readImportPayload(deps.db.sql, row.workspace_id, row.id);
  if (payload === undefined) throw new ApiError('not_found', "The import's rows are gone (it already finished).");
  if (row.source === 'rows') return jsonItems(JSON.parse(payload) as unknown[]);
  return csvItemGroups(once(csvFromPayload(payload)), row.column_map);
}

/**
 * Inline CSV is kept as a JSON string: a NUL (which the import reports per row) cannot be stored in
 * text. A payload stored raw by an earlier version is never valid JSON (it has over a thousand lines,
 * and a JSON string holds no raw line break), so it is read as it is.
 */
export const csvPayload = (csv: string) => JSON.stringify(csv);

function csvFromPayload(payload: string): string {
  if (!payload.startsWith('"')) return payload;
  try {
    return JSON.parse(payload) as string;
  } catch {
    return payload;
  }
}
