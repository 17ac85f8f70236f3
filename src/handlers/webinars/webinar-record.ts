// The webinar an operation acts on: required in the workspace (404 otherwise), and shown with its
// registrant and mail counts and its public registration URL.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { emptyMailCounts, mailCounts } from './webinar-mail-data.ts';
import { findWebinar, webinarCounts, type WebinarRow } from './webinars-data.ts';
import { registrationUrl, type WebinarView } from './wire.ts';

export async function viewWebinars(deps: Deps, workspaceId: string, rows: WebinarRow[]): Promise<WebinarView[]> {
  const ids = rows.map((r) => r.id);
  const counts = rows.length ? await webinarCounts(deps.db.sql, workspaceId, ids) : new Map();
  const mail = rows.length ? await mailCounts(deps.db.sql, workspaceId, ids) : new Map();
  return rows.map((row) => ({
    row,
    counts: counts.get(row.id) ?? { registered: 0, joined: 0 },
    mail: mail.get(row.id) ?? emptyMailCounts(),
    registrationUrl: registrationUrl(deps, row),
  }));
}

export const viewWebinar = async (deps: Deps, row: WebinarRow): Promise<WebinarView> =>
  (await viewWebinars(deps, row.workspace_id, [row]))[0];

export async function requireWebinar(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebinarRow> {
  const row = await findWebinar(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No webinar ${id} in this workspace.`);
  return row;
}
