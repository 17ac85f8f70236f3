import { findOperation, finishedStatuses, type OperationRow } from '../../data/operations.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { waitForChange } from './wait-for-change.ts';

export interface GetOperationRequest {
  operationId: string;
  /** 0–50: answer as soon as the status (or progress) changes, or when this many seconds pass. */
  waitSeconds: number;
  /** Aborted when the caller goes away: the wait ends at once. */
  signal?: AbortSignal;
}

const changedSince = (first: OperationRow, now: OperationRow) =>
  finishedStatuses.includes(now.status) || now.status !== first.status || now.progress_done !== first.progress_done || now.progress_total !== first.progress_total;

/** Any member may follow the workspace's operations; a finished one answers at once. */
export function getOperation(deps: Deps, actor: Actor, request: GetOperationRequest): Promise<OperationRow> {
  const read = async () => {
    const row = await findOperation(deps.db.sql, actor.workspaceId, request.operationId);
    if (!row) throw new ApiError('not_found', `No operation ${request.operationId} in this workspace.`);
    return row;
  };
  return waitForChange(deps, { id: request.operationId, waitSeconds: request.waitSeconds, signal: request.signal }, read, changedSince);
}
