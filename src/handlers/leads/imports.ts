import type {
  BulkImportLeadsInput,
  BulkImportLeadsOutput,
  GetLeadImportInput,
  GetLeadImportOutput,
  ListLeadImportErrorsInput,
  ListLeadImportErrorsOutput,
} from '../../generated/handlers.ts';
import { bulkImportLeads as importLeads } from './bulk-import.ts';
import { getLeadImport as find, listLeadImportErrors as listErrors } from './imports-logic.ts';
import { importBody, importErrorBody } from './wire.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';

export async function bulkImportLeads(input: BulkImportLeadsInput, ctx: HandlerContext): Promise<BulkImportLeadsOutput> {
  const actor = actorFrom(ctx);
  const { body } = input;
  // A text/csv body is imported with the defaults; a JSON body carries the options.
  const request =
    body.contentType === 'text/csv'
      ? { csv: body.value }
      : { rows: body.value.rows, csv: body.value.csv, csvUrl: body.value.csv_url, onConflict: body.value.on_conflict, columnMap: body.value.column_map, tags: body.value.tags };
  const outcome = await importLeads(ctx.deps, actor, request);
  if (outcome.kind === 'started') return { status: 202, body: operationBody(outcome.operation), headers: { Location: operationPath(outcome.operation.id) } };
  return {
    status: 200,
    body: { import: importBody(outcome.import), results: outcome.results.map((r) => ({ row: r.row, result: r.result, ...(r.errors ? { errors: r.errors.map(importErrorBody) } : {}) })) },
  };
}

export async function getLeadImport(input: GetLeadImportInput, ctx: HandlerContext): Promise<GetLeadImportOutput> {
  return { status: 200, body: importBody(await find(ctx.deps, actorFrom(ctx), input.path.import_id)) };
}

export async function listLeadImportErrors(input: ListLeadImportErrorsInput, ctx: HandlerContext): Promise<ListLeadImportErrorsOutput> {
  const actor = actorFrom(ctx);
  const importId = input.path.import_id;
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_lead_import_errors:${importId}`, actor.workspaceId);
  // Errors page in row order: the cursor's time slot carries the row, its id slot the sequence number.
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await listErrors(ctx.deps, actor, importId, { limit: limit + 1, after: after ? { row: Date.parse(after.at), seq: Number(after.id.split('_')[1]) } : undefined });
  return {
    status: 200,
    body: page(rows, limit, importErrorBody, (r) => ({ at: new Date(r.row).toISOString(), id: `seq_${String(r.seq).padStart(26, '0')}` }), scope),
  };
}
