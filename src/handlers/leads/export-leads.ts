import type { ExportLeadsInput, ExportLeadsOutput } from '../../generated/handlers.ts';
import { insertExport, type ExportFilters } from './lead-exports-data.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { startOperation } from '../operations/operation-job.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { exportLeadsJob } from './export.ts';

/** Filters arrive validated by the contract (date-times, statuses, the import id's form). */
export async function exportLeads(deps: Deps, actor: Actor, filters: ExportFilters): Promise<OperationRow> {
  const clean: ExportFilters = {
    ...(filters.q?.trim() ? { q: filters.q.trim() } : {}),
    ...(filters.status?.length ? { status: [...new Set(filters.status)] } : {}),
    ...(filters.stage?.length ? { stage: [...new Set(filters.stage)] } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
    ...(filters.import_id ? { import_id: filters.import_id } : {}),
    ...(filters.created_after ? { created_after: filters.created_after } : {}),
    ...(filters.created_before ? { created_before: filters.created_before } : {}),
  };
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const created = await insertExport(tx, actor.workspaceId, deps.ids, {
      filters: clean,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    return startOperation(deps, tx, actor, {
      kind: exportLeadsJob,
      input: { export_id: created.id },
      resource: { type: 'lead_export', id: created.id },
    });
  });
  afterCommit();
  return row;
}

export async function handle(input: ExportLeadsInput, ctx: HandlerContext): Promise<ExportLeadsOutput> {
  const operation = await exportLeads(ctx.deps, actorFrom(ctx), input.body ?? {});
  return { status: 202, body: operationBody(operation), headers: { Location: operationPath(operation.id) } };
}
