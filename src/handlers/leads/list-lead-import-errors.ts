import type { ListLeadImportErrorsInput, ListLeadImportErrorsOutput } from '../../generated/handlers.ts';
import { listImportErrors, type ImportErrorRow } from './lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { getLeadImport } from './get-lead-import.ts';
import { importErrorBody } from './wire.ts';

/** A page of the import's row errors in row order, after `after` (a row and its error's sequence number). */
export async function listLeadImportErrors(deps: Deps, actor: Actor, importId: string, request: { limit: number; after?: { row: number; seq: number } }): Promise<ImportErrorRow[]> {
  await getLeadImport(deps, actor, importId);
  return listImportErrors(deps.db.sql, actor.workspaceId, importId, request);
}

export async function handle(input: ListLeadImportErrorsInput, ctx: HandlerContext): Promise<ListLeadImportErrorsOutput> {
  const actor = actorFrom(ctx);
  const importId = input.path.import_id;
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_lead_import_errors:${importId}`, actor.workspaceId);
  // Errors page in row order: the cursor's time slot carries the row, its id slot the sequence number.
  const after = decodeCursor(input.query.cursor, scope);
  const rows = await listLeadImportErrors(ctx.deps, actor, importId, { limit: limit + 1, after: after ? { row: Date.parse(after.at), seq: Number(after.id.split('_')[1]) } : undefined });
  return {
    status: 200,
    body: page(rows, limit, importErrorBody, (r) => ({ at: new Date(r.row).toISOString(), id: `seq_${String(r.seq).padStart(26, '0')}` }), scope),
  };
}
