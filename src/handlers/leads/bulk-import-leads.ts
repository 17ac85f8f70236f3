// bulk_import_leads: rows (JSON objects), csv (text) or csv_url. Up to SYNC_LIMIT rows are imported
// in the request and answered with each row's result; more, and every csv_url, become an operation
// whose job (bulk-import.ts) streams the source and writes it in batches. Any member of the workspace
// may import.
import type { BulkImportLeadsInput, BulkImportLeadsOutput } from '../../generated/handlers.ts';
import {
  insertImport,
  listImportErrors,
  storeImportPayload,
  type ImportErrorRow,
  type ImportRow,
} from './lead-imports-data.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { hasUnstorableCharacter, storable } from './lead-fields.ts';
import { checkUserUrl } from '../../outbound/user-url.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor } from '../events/record-event.ts';
import { startOperation } from '../operations/operation-job.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { csvPayload, finalStatus, finish, once, sourceProblem } from './bulk-import.ts';
import { runImport, type RowResult } from './import-engine.ts';
import { csvItems, jsonItems, type ImportItem } from './import-items.ts';
import { importBody, importErrorBody } from './wire.ts';
import { bulkImportLeadsJob } from './bulk-import.ts';

export const SYNC_LIMIT = 1_000;

export interface BulkImportLeadsRequest {
  rows?: unknown[];
  csv?: string;
  csvUrl?: string;
  onConflict?: 'skip' | 'update';
  columnMap?: Record<string, string>;
  tags?: string[];
}

export type BulkImportLeadsOutcome =
  | { kind: 'completed'; import: ImportRow; results: Array<RowResult & { errors?: ImportErrorRow[] }> }
  | { kind: 'started'; operation: OperationRow };

export async function bulkImportLeads(
  deps: Deps,
  actor: Actor,
  request: BulkImportLeadsRequest,
): Promise<BulkImportLeadsOutcome> {
  const given = [request.rows !== undefined, request.csv !== undefined, request.csvUrl !== undefined].filter(
    Boolean,
  ).length;
  if (given !== 1) {
    throw new ApiError('validation_failed', 'Give exactly one of rows, csv and csv_url.', {
      errors: [{ field: 'body', code: 'one_source', message: 'exactly one of rows, csv, csv_url' }],
    });
  }
  checkStorable(request);
  const source: ImportRow['source'] =
    request.rows !== undefined ? 'rows' : request.csv !== undefined ? 'csv' : 'csv_url';
  const csvUrl =
    request.csvUrl === undefined
      ? null
      : checkUserUrl(request.csvUrl, { allowPrivate: deps.config.outbound.allowPrivate, field: 'csv_url' }).href;
  const fields = {
    source,
    sourceUrl: csvUrl,
    onConflict: request.onConflict ?? 'skip',
    columnMap: request.columnMap ?? {},
    tags: request.tags ?? [],
    createdBy: actor.userId,
  } as const;

  // Small inline sources are imported now; the count of a CSV is known after reading at most SYNC_LIMIT + 1 rows.
  let small: ImportItem[] | undefined;
  if (request.rows !== undefined && request.rows.length <= SYNC_LIMIT)
    small = await collect(jsonItems(request.rows), SYNC_LIMIT);
  if (request.csv !== undefined) {
    try {
      small = await collect(csvItems(once(request.csv), request.columnMap), SYNC_LIMIT);
    } catch (error) {
      throw sourceProblem(error) ?? error;
    }
  }
  if (small) {
    const created = await insertImport(deps.db.sql, actor.workspaceId, deps.ids, {
      ...fields,
      status: 'processing',
      now: deps.clock.now(),
    });
    const results: RowResult[] = [];
    const counts = await runImport(
      deps,
      { workspaceId: actor.workspaceId, importId: created.id, onConflict: fields.onConflict, tags: fields.tags },
      (async function* () {
        yield* small;
      })(),
      { onResults: (rows) => results.push(...rows) },
    );
    const done = await finish(deps, actor, created.id, finalStatus(counts), null, eventActor(actor));
    const invalidRows = results.filter((r) => r.result === 'invalid').map((r) => r.row);
    const errors = invalidRows.length
      ? await listImportErrors(deps.db.sql, actor.workspaceId, created.id, { limit: 10_000, rows: invalidRows })
      : [];
    return {
      kind: 'completed',
      import: done,
      results: results.map((r) =>
        r.result === 'invalid' ? { ...r, errors: errors.filter((e) => e.row === r.row) } : r,
      ),
    };
  }
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const created = await insertImport(tx, actor.workspaceId, deps.ids, {
      ...fields,
      status: 'queued',
      now: deps.clock.now(),
    });
    if (request.rows !== undefined)
      await storeImportPayload(tx, actor.workspaceId, created.id, JSON.stringify(request.rows));
    if (request.csv !== undefined) await storeImportPayload(tx, actor.workspaceId, created.id, csvPayload(request.csv));
    return startOperation(deps, tx, actor, {
      kind: bulkImportLeadsJob,
      input: { import_id: created.id },
      resource: { type: 'lead_import', id: created.id },
    });
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

/**
 * The options that apply to every row are refused as a whole when they hold a character that cannot be
 * stored (row values are reported per row by normalizeLead).
 */
function checkStorable(request: BulkImportLeadsRequest): void {
  const bad = [
    ...(request.tags ?? []).map((tag, i) => [`tags[${i}]`, tag] as const),
    ...Object.entries(request.columnMap ?? {}).flatMap(
      ([key, target]) =>
        [
          [`column_map`, key],
          [`column_map.${storable(key)}`, target],
        ] as const,
    ),
  ].filter(([, value]) => typeof value === 'string' && hasUnstorableCharacter(value));
  if (bad.length === 0) return;
  throw new ApiError('validation_failed', 'A NUL or an unpaired surrogate cannot be stored.', {
    errors: bad.map(([field]) => ({
      field,
      code: 'invalid_character',
      message: 'holds a NUL or an unpaired surrogate',
    })),
  });
}

export async function handle(input: BulkImportLeadsInput, ctx: HandlerContext): Promise<BulkImportLeadsOutput> {
  const actor = actorFrom(ctx);
  const { body } = input;
  // A text/csv body is imported with the defaults; a JSON body carries the options.
  const request =
    body.contentType === 'text/csv'
      ? { csv: body.value }
      : {
          rows: body.value.rows,
          csv: body.value.csv,
          csvUrl: body.value.csv_url,
          onConflict: body.value.on_conflict,
          columnMap: body.value.column_map,
          tags: body.value.tags,
        };
  const outcome = await bulkImportLeads(ctx.deps, actor, request);
  if (outcome.kind === 'started')
    return {
      status: 202,
      body: operationBody(outcome.operation),
      headers: { Location: operationPath(outcome.operation.id) },
    };
  return {
    status: 200,
    body: {
      import: importBody(outcome.import),
      results: outcome.results.map((r) => ({
        row: r.row,
        result: r.result,
        ...(r.errors ? { errors: r.errors.map(importErrorBody) } : {}),
      })),
    },
  };
}
