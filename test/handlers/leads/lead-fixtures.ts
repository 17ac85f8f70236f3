// Shared makings of the lead tests: a lead with only the fields a test names, and an import row
// (through the data layer, as the service writes it) for running the engine directly.
import type { LeadFields } from '../../../src/handlers/leads/leads-data.ts';
import { insertImport } from '../../../src/handlers/leads/lead-imports-data.ts';
import type { ImportTarget } from '../../../src/handlers/leads/import-engine.ts';
import type { TestApp } from '../../helpers/app.ts';

export const blankLead = (email: string, extra: Partial<LeadFields> = {}): LeadFields => ({
  email,
  first_name: null,
  last_name: null,
  company: null,
  title: null,
  phone: null,
  website: null,
  linkedin_url: null,
  timezone: null,
  tags: [],
  custom_fields: {},
  ...extra,
});

/** A `processing` import in the workspace, and the engine's target for it. */
export async function newImport(
  t: TestApp,
  workspaceId: string,
  options: { source: 'rows' | 'csv'; tags: string[] },
): Promise<ImportTarget> {
  const row = await insertImport(t.db.sql, workspaceId, t.deps.ids, {
    status: 'processing',
    source: options.source,
    sourceUrl: null,
    onConflict: 'skip',
    columnMap: {},
    tags: options.tags,
    createdBy: null,
    now: new Date(),
  });
  return { workspaceId, importId: row.id, onConflict: 'skip', tags: options.tags };
}
