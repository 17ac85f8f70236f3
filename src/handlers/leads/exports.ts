import type {
  DownloadLeadExportInput,
  DownloadLeadExportOutput,
  ExportLeadsInput,
  ExportLeadsOutput,
  GetLeadExportInput,
  GetLeadExportOutput,
} from '../../generated/handlers.ts';
import { downloadLeadExport as download, exportLeads as start, getLeadExport as find } from './export.ts';
import { exportBody } from './wire.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function exportLeads(input: ExportLeadsInput, ctx: HandlerContext): Promise<ExportLeadsOutput> {
  const operation = await start(ctx.deps, actorFrom(ctx), input.body ?? {});
  return { status: 202, body: operationBody(operation), headers: { Location: operationPath(operation.id) } };
}

export async function getLeadExport(input: GetLeadExportInput, ctx: HandlerContext): Promise<GetLeadExportOutput> {
  return { status: 200, body: exportBody(await find(ctx.deps, actorFrom(ctx), input.path.export_id)) };
}

export async function downloadLeadExport(input: DownloadLeadExportInput, ctx: HandlerContext): Promise<DownloadLeadExportOutput> {
  const { row, chunks } = await download(ctx.deps, actorFrom(ctx), input.path.export_id);
  return {
    status: 200,
    body: chunks,
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="leads-${row.id}.csv"`, 'Cache-Control': 'no-store' },
  };
}
