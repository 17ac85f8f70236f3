// Reading lead imports: one import with its counts, and the rows it rejected. Any member of the workspace may.
import { findImport, type ImportErrorRow, type ImportRow, listImportErrors as listErrorRows } from './lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';

export async function getLeadImport(deps: Deps, actor: Actor, importId: string): Promise<ImportRow> {
  const row = await findImport(deps.db.sql, actor.workspaceId, importId);
  if (!row) throw new ApiError('not_found', `No lead import ${importId} in this workspace.`);
  return row;
}

/** A page of the import's row errors in row order, after `after` (a row and its error's sequence number). */
export async function listLeadImportErrors(deps: Deps, actor: Actor, importId: string, page: { limit: number; after?: { row: number; seq: number } }): Promise<ImportErrorRow[]> {
  await getLeadImport(deps, actor, importId);
  return listErrorRows(deps.db.sql, actor.workspaceId, importId, page);
}
