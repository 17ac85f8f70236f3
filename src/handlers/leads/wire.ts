// Leads and lead imports as the contract shows them.
import type { ImportErrorRow, ImportRow } from './lead-imports-data.ts';
import type { LeadRow } from './leads-data.ts';
import type { ExportRow } from './lead-exports-data.ts';

export const importBody = (i: ImportRow) => ({
  id: i.id,
  status: i.status,
  source: i.source,
  on_conflict: i.on_conflict,
  counts: {
    total: i.total,
    created: i.created,
    updated: i.updated,
    skipped_duplicate: i.skipped_duplicate,
    invalid: i.invalid,
  },
  error_message: i.error_message,
  created_at: i.created_at.toISOString(),
  finished_at: i.finished_at ? i.finished_at.toISOString() : null,
});

export const importErrorBody = (e: ImportErrorRow) => ({
  row: e.row,
  line: e.line,
  column: e.column,
  value: e.value,
  code: e.code,
  message: e.message,
});

export const leadBody = (l: LeadRow) => ({
  id: l.id,
  email: l.email,
  first_name: l.first_name,
  last_name: l.last_name,
  company: l.company,
  title: l.title,
  phone: l.phone,
  website: l.website,
  linkedin_url: l.linkedin_url,
  timezone: l.timezone,
  tags: [...l.tags],
  custom_fields: l.custom_fields,
  status: l.status,
  stage: l.stage,
  source_import_id: l.source_import_id,
  created_at: l.created_at.toISOString(),
  updated_at: l.updated_at.toISOString(),
});

export const exportDownloadPath = (id: string) => `/api/v1/leads/exports/${id}/download`;

export const exportBody = (e: ExportRow) => ({
  id: e.id,
  status: e.status,
  filters: e.filters,
  row_count: e.row_count,
  size_bytes: Number(e.size_bytes),
  download_url: e.status === 'ready' ? exportDownloadPath(e.id) : null,
  error_message: e.error_message,
  created_at: e.created_at.toISOString(),
  finished_at: e.finished_at ? e.finished_at.toISOString() : null,
  expires_at: e.expires_at ? e.expires_at.toISOString() : null,
});
