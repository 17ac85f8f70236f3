// An operation as the contract shows it.
import type { OperationRow } from './operations-data.ts';

export const operationPath = (id: string) => `/api/v1/operations/${id}`;

export const operationBody = (o: OperationRow) => ({
  id: o.id,
  type: o.type,
  status: o.status,
  progress: { done: o.progress_done, total: o.progress_total },
  resource: o.resource_type && o.resource_id ? { type: o.resource_type, id: o.resource_id } : null,
  error: o.error,
  cancel_requested_at: o.cancel_requested_at ? o.cancel_requested_at.toISOString() : null,
  created_at: o.created_at.toISOString(),
  updated_at: o.updated_at.toISOString(),
  finished_at: o.finished_at ? o.finished_at.toISOString() : null,
});
