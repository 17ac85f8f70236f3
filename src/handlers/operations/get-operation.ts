import { findOperation, finishedStatuses, type OperationRow } from './operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { GetOperationInput, GetOperationOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from './wait-for-change.ts';
import { operationBody } from './wire.ts';

export interface GetOperationRequest {
  operationId: string;
  /** 0–50: answer as soon as the status (or progress) changes, or when this many seconds pass. */
  waitSeconds: number;
  /** Aborted when the caller goes away: the wait ends at once. */
  signal?: AbortSignal;
}

const watched: Watched<OperationRow> = {
  fingerprint: (row) => JSON.stringify([row.status, row.progress_done, row.progress_total]),
  settled: (row) => finishedStatuses.includes(row.status),
};

/** Any member may follow the workspace's operations; a finished one answers at once. */
export function getOperation(deps: Deps, actor: Actor, request: GetOperationRequest): Promise<OperationRow> {
  const read = async () => {
    const row = await findOperation(deps.db.sql, actor.workspaceId, request.operationId);
    if (!row) throw new ApiError('not_found', `No operation ${request.operationId} in this workspace.`);
    return row;
  };
  return waitForChange(
    deps,
    actor,
    { id: request.operationId, waitSeconds: request.waitSeconds, signal: request.signal },
    read,
    watched,
  );
}

export async function handle(input: GetOperationInput, ctx: HandlerContext): Promise<GetOperationOutput> {
  const row = await getOperation(ctx.deps, actorFrom(ctx), {
    operationId: input.path.operation_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body: operationBody(row) };
}
