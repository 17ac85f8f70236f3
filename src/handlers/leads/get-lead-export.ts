import type { GetLeadExportInput, GetLeadExportOutput } from '../../generated/handlers.ts';
import { findExport, type ExportRow } from './lead-exports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { exportBody } from './wire.ts';

export async function getLeadExport(deps: Deps, actor: Actor, exportId: string): Promise<ExportRow> {
  const row = await findExport(deps.db.sql, actor.workspaceId, exportId);
  if (!row) throw new ApiError('not_found', `No lead export ${exportId} in this workspace.`);
  return row;
}

export async function handle(input: GetLeadExportInput, ctx: HandlerContext): Promise<GetLeadExportOutput> {
  return { status: 200, body: exportBody(await getLeadExport(ctx.deps, actorFrom(ctx), input.path.export_id)) };
}
