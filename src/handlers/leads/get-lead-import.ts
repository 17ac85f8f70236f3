import type { GetLeadImportInput, GetLeadImportOutput } from '../../generated/handlers.ts';
import { findImport, type ImportRow } from './lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { importBody } from './wire.ts';

/** One import with its counts; any member of the workspace may. */
export async function getLeadImport(deps: Deps, actor: Actor, importId: string): Promise<ImportRow> {
  const row = await findImport(deps.db.sql, actor.workspaceId, importId);
  if (!row) throw new ApiError('not_found', `No lead import ${importId} in this workspace.`);
  return row;
}

export async function handle(input: GetLeadImportInput, ctx: HandlerContext): Promise<GetLeadImportOutput> {
  return { status: 200, body: importBody(await getLeadImport(ctx.deps, actorFrom(ctx), input.path.import_id)) };
}
