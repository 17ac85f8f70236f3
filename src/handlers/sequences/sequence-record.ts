// The sequence an operation acts on: required in the workspace (404 otherwise), moved from the status read
// under its row lock, and shown with its stats and approval URL.
import {
  findSequence,
  sequenceStats,
  setSequenceStatus,
  type SequenceRow,
  type StatusChange,
} from './sequences-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Queryable } from '../../db/queryable.ts';
import { approvalUrl, emptyStats, type SequenceView } from './wire.ts';

export async function viewSequences(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  rows: SequenceRow[],
): Promise<SequenceView[]> {
  const stats = rows.length
    ? await sequenceStats(
        q,
        workspaceId,
        rows.map((r) => r.id),
      )
    : new Map();
  return rows.map((row) => ({
    row,
    stats: stats.get(row.id) ?? emptyStats,
    approvalUrl: approvalUrl(deps.config.publicBaseUrl, row.id),
  }));
}

export const viewSequence = async (deps: Deps, workspaceId: string, row: SequenceRow): Promise<SequenceView> =>
  (await viewSequences(deps, deps.db.sql, workspaceId, [row]))[0];

export async function requireSequence(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SequenceRow> {
  const row = await findSequence(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No sequence ${id} in this workspace.`);
  return row;
}

/**
 * Moves a sequence the caller locked (`requireSequence` with `forUpdate`) from the status it read: nobody
 * else can move it meanwhile, so a miss is a fault of the caller, not a conflict to report.
 */
export async function moveLockedSequence(
  tx: Queryable,
  workspaceId: string,
  id: string,
  change: StatusChange,
): Promise<SequenceRow> {
  const row = await setSequenceStatus(tx, workspaceId, id, change);
  if (!row) throw new Error(`Sequence ${id} was not ${change.from.join(' or ')} under its own row lock.`);
  return row;
}
