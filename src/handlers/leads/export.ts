// The jobs of export_leads (export-leads.ts): a CSV of the leads matching list_leads' filters, written
// into parts (each part one transaction with the export's checkpoint, so a resumed export continues
// after the last committed part and writes every lead once), then streamed back by download_lead_export
// with the caller's credential. The export is a snapshot: leads created after it started are left out. Cells a
// spreadsheet would run as formulas are defused (src/handlers/leads/export-csv.ts). Parts are kept for
// EXPORT_TTL_MS after the export is ready, then swept.
import { z } from 'zod';
import {
  appendExportPart,
  beginExport,
  countExportLeads,
  exportCustomFieldKeys,
  exportLeadsPage,
  findExport,
  finishExport,
  lockExport,
  sweepExpiredExports,
} from './lead-exports-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { defineJob, type JobKind } from '../../jobs/job-kind.ts';
import { csvLine, leadExportHeader, leadExportRow } from './export-csv.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import {
  defineOperationJob,
  OperationCancelled,
  RunSuperseded,
  type OperationJobKind,
} from '../operations/operation-job.ts';
import { exportBody } from './wire.ts';

/** Leads per part: one read, one transaction, about 0.5 MB of CSV. */
export const EXPORT_PART_ROWS = 2_000;
/** Custom-field columns beyond this many are left out of the header (the export says so in its error_message). */
export const EXPORT_MAX_CUSTOM_COLUMNS = 200;
export const EXPORT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const BOM = '\ufeff';

/** Writes an export_leads file in parts, followed by the operation it started. */
export const exportLeadsJob: OperationJobKind<{ export_id: string }> = defineOperationJob({
  name: 'leads.export',
  type: 'lead_export',
  input: z.object({ export_id: z.string() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  async run({ export_id: exportId }, work, deps) {
    const { workspaceId } = work;
    const current = await findExport(deps.db.sql, workspaceId, exportId);
    if (!current) throw new ApiError('not_found', `Lead export ${exportId} is gone.`);
    // A retry of a run that did finish (it was presumed dead, yet alive) has nothing left to do.
    if (current.status !== 'queued' && current.status !== 'processing')
      return { resource: { type: 'lead_export', id: exportId } };
    const snapshotAt = current.snapshot_at ?? deps.clock.now();
    const keys =
      current.custom_field_keys ??
      (await exportCustomFieldKeys(
        deps.db.sql,
        workspaceId,
        current.filters,
        snapshotAt,
        EXPORT_MAX_CUSTOM_COLUMNS + 1,
      ));
    const started = await beginExport(deps.db.sql, workspaceId, exportId, {
      snapshotAt,
      customFieldKeys: keys,
      now: deps.clock.now(),
    });
    const columns = (started.custom_field_keys as string[]).slice(0, EXPORT_MAX_CUSTOM_COLUMNS);
    const total = await countExportLeads(deps.db.sql, workspaceId, started.filters, started.snapshot_at as Date);
    const header = leadExportHeader(columns);
    try {
      await work.progress(started.row_count, total);
      let part = started.parts;
      if (part === 0) await writePart(deps, workspaceId, exportId, part++, `${BOM}${csvLine(header)}`, 0);
      let after = started.after_id
        ? { cursor_at: started.after_created_at as string, id: started.after_id }
        : undefined;
      let done = started.row_count;
      for (;;) {
        await work.throwIfCancelled();
        const leads = await exportLeadsPage(
          deps.db.sql,
          workspaceId,
          started.filters,
          started.snapshot_at as Date,
          after,
          EXPORT_PART_ROWS,
        );
        if (leads.length === 0) break;
        let content = '';
        for (const lead of leads) content += csvLine(leadExportRow(lead, columns));
        const last = leads[leads.length - 1];
        after = { cursor_at: last.cursor_at, id: last.id };
        await writePart(deps, workspaceId, exportId, part++, content, leads.length, after);
        done += leads.length;
        await work.progress(done, Math.max(total, done));
        if (leads.length < EXPORT_PART_ROWS) break;
      }
    } catch (error) {
      if (error instanceof OperationCancelled) {
        await finishExport(deps.db.sql, workspaceId, exportId, {
          status: 'cancelled',
          errorMessage: 'Cancelled; nothing to download.',
          now: deps.clock.now(),
        });
      } else if (!(error instanceof RunSuperseded) && (error instanceof ApiError || work.job.attempt > 3)) {
        await finishExport(deps.db.sql, workspaceId, exportId, {
          status: 'failed',
          errorMessage: error instanceof ApiError ? error.message : 'The export failed on our side.',
          now: deps.clock.now(),
        });
      }
      throw error;
    }
    const now = deps.clock.now();
    const note =
      (started.custom_field_keys as string[]).length > EXPORT_MAX_CUSTOM_COLUMNS
        ? `The leads have more than ${EXPORT_MAX_CUSTOM_COLUMNS} custom fields; the first ${EXPORT_MAX_CUSTOM_COLUMNS} by name are exported.`
        : null;
    await deps.db.sql.begin(async (tx) => {
      const ready = await finishExport(tx, workspaceId, exportId, {
        status: 'ready',
        errorMessage: note,
        expiresAt: new Date(now.getTime() + EXPORT_TTL_MS),
        now,
      });
      if (!ready) throw new Error(`lead export ${exportId} is gone`);
      await recordEvent(deps, tx, workspaceId, eventActor(work.actor), 'lead_export.ready', exportBody(ready));
    });
    return { resource: { type: 'lead_export', id: exportId } };
  },
});

/**
 * Appends part number `part`, under the export's row lock. A part already there means another run of
 * this export got ahead (one presumed dead and retried while it still lived): this run stops and leaves
 * the export to it, so no part is written twice.
 */
async function writePart(
  deps: Deps,
  workspaceId: string,
  exportId: string,
  part: number,
  content: string,
  rows: number,
  last?: { cursor_at: string; id: string },
): Promise<void> {
  await deps.db.sql.begin(async (tx) => {
    const locked = await lockExport(tx, workspaceId, exportId);
    if (!locked || locked.status !== 'processing')
      throw new ApiError('conflict', `Lead export ${exportId} is ${locked?.status ?? 'gone'}.`);
    if (locked.parts !== part)
      throw new RunSuperseded(`lead export ${exportId}: part ${part} was written by another run`);
    await appendExportPart(tx, workspaceId, exportId, {
      content,
      bytes: Buffer.byteLength(content),
      rows,
      last,
      now: deps.clock.now(),
    });
  });
}

/** Expires ready exports past their time and drops their parts (hourly). */
export const sweepLeadExportsJob = defineJob({
  name: 'leads.sweep-exports',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  handler: async (_payload, _job, deps: Pick<Deps, 'db' | 'clock'>) => {
    await deps.db.sql.begin((tx) => sweepExpiredExports(tx, deps.clock.now()));
  },
});
