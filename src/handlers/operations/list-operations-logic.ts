import { listOperations as listRows, type OperationRow, type OperationStatus } from './operations-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export interface ListOperationsRequest {
  statuses: OperationStatus[];
  types: string[];
  before?: PageBound;
  limit: number;
}

/** The workspace's operations, newest first; any member may list them. */
export function listOperations(deps: Deps, actor: Actor, request: ListOperationsRequest): Promise<OperationRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, request);
}
