import type { DownloadLeadExportInput, DownloadLeadExportOutput } from '../../generated/handlers.ts';
import { readExportParts, type ExportRow } from './lead-exports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { getLeadExport } from './get-lead-export.ts';

/** The ready export's CSV as a stream of parts, read a few at a time so memory stays one part or so. */
export async function downloadLeadExport(
  deps: Deps,
  actor: Actor,
  exportId: string,
): Promise<{ row: ExportRow; chunks: AsyncGenerator<string> }> {
  const row = await getLeadExport(deps, actor, exportId);
  if (row.status === 'expired')
    throw new ApiError(
      'export_expired',
      `Lead export ${exportId} expired at ${row.expires_at?.toISOString()}; start a new one with export_leads.`,
    );
  if (row.status !== 'ready') {
    throw new ApiError(
      'export_not_ready',
      `Lead export ${exportId} is ${row.status}, not ready${row.status === 'queued' || row.status === 'processing' ? '; wait for its operation (get_operation) and try again' : ''}.`,
    );
  }
  async function* chunks(): AsyncGenerator<string> {
    for (let next = 0; next < row.parts; ) {
      const parts = await readExportParts(deps.db.sql, actor.workspaceId, exportId, next, 4);
      if (parts.length === 0) throw new Error(`lead export ${exportId} lost its parts while being read`);
      for (const part of parts) yield part.content;
      next = parts[parts.length - 1].part + 1;
    }
  }
  return { row, chunks: chunks() };
}

export async function handle(input: DownloadLeadExportInput, ctx: HandlerContext): Promise<DownloadLeadExportOutput> {
  const { row, chunks } = await downloadLeadExport(ctx.deps, actorFrom(ctx), input.path.export_id);
  return {
    status: 200,
    body: chunks,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="leads-${row.id}.csv"`,
      'Cache-Control': 'no-store',
    },
  };
}
