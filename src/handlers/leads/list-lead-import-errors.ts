import type { ListLeadImportErrorsInput, ListLeadImportErrorsOutput } from '../../generated/handlers.ts';
import { listImportErrors, type ImportErrorRow } from './lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope, type Position } from '../pagination.ts';
import { getLeadImport } from './get-lead-import.ts';
import { importErrorBody } from './wire.ts';

export type ListLeadImportErrorsRequest = ListLeadImportErrorsInput['query'];

// Errors page in row order: the cursor's time slot carries the row, its id slot the sequence number.
const byRow = (error: ImportErrorRow): Position => ({
  at: new Date(error.row).toISOString(),
  id: `seq_${String(error.seq).padStart(26, '0')}`,
});

/** The import's row errors in row order; any member of the workspace may. */
export function listLeadImportErrors(deps: Deps, actor: Actor, importId: string, request: ListLeadImportErrorsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, `list_lead_import_errors:${importId}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      await getLeadImport(deps, actor, importId);
      return listImportErrors(deps.db.sql, actor.workspaceId, importId, {
        limit,
        after: after ? { row: Date.parse(after.at), seq: Number(after.id.split('_')[1]) } : undefined,
      });
    },
    toItem: importErrorBody,
    position: byRow,
  });
}

export async function handle(
  input: ListLeadImportErrorsInput,
  ctx: HandlerContext,
): Promise<ListLeadImportErrorsOutput> {
  return { status: 200, body: await listLeadImportErrors(ctx.deps, actorFrom(ctx), input.path.import_id, input.query) };
}
