import { findOperation, finishedStatuses, type OperationRow } from '../../data/operations.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';

export interface GetOperationRequest {
  operationId: string;
  /** 0–50: answer as soon as the status (or progress) changes, or when this many seconds pass. */
  waitSeconds: number;
  /** Aborted when the caller goes away: the wait ends at once. */
  signal?: AbortSignal;
}

const changedSince = (first: OperationRow, now: OperationRow) =>
  now.status !== first.status || now.progress_done !== first.progress_done || now.progress_total !== first.progress_total;

/**
 * Any member may follow the workspace's operations. With a wait, the call holds no database
 * connection: it reads, then sleeps until the operation's watch wakes it (or the recheck timer
 * fires), then reads again. A finished operation answers at once.
 */
export async function getOperation(deps: Deps, actor: Actor, request: GetOperationRequest): Promise<OperationRow> {
  const { operationId, signal } = request;
  const read = async () => {
    const row = await findOperation(deps.db.sql, actor.workspaceId, operationId);
    if (!row) throw new ApiError('not_found', `No operation ${operationId} in this workspace.`);
    return row;
  };
  const deadline = Date.now() + request.waitSeconds * 1000;
  if (request.waitSeconds > 0) await deps.resourceWatch.ready();
  const first = await read();
  let current = first;
  for (;;) {
    if (finishedStatuses.includes(current.status) || changedSince(first, current)) return current;
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return current;
    // Registered before the next read, so a change between that read and the sleep is not missed.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const woken = deps.resourceWatch.wait(operationId, Math.min(left, deps.config.operationWaitRecheckMs), stop.signal);
    try {
      current = await read();
      if (finishedStatuses.includes(current.status) || changedSince(first, current)) return current;
      await woken;
      current = await read();
    } finally {
      stop.abort();
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
