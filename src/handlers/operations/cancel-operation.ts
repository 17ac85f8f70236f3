import { findOperation, requestCancel, type OperationRow } from './operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { CancelOperationInput, CancelOperationOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { operationBody } from './wire.ts';

/**
 * Cooperative: a queued operation is cancelled at once; a running one is marked and its job stops
 * at its next check (the status turns `cancelled` then). Members cancel what they started, admins
 * anything. 409 `operation_finished` when it already ended; asking twice is harmless.
 */
export async function cancelOperation(deps: Deps, actor: Actor, operationId: string): Promise<OperationRow> {
  const row = await findOperation(deps.db.sql, actor.workspaceId, operationId);
  if (!row) throw new ApiError('not_found', `No operation ${operationId} in this workspace.`);
  const startedBy = row.actor.userId ?? null;
  const admin = actor.role === 'owner' || actor.role === 'admin';
  if (!admin && (startedBy === null || startedBy !== actor.userId)) {
    throw new ApiError('forbidden', 'Only workspace admins can cancel operations someone else started.');
  }
  const updated = await requestCancel(deps.db.sql, actor.workspaceId, operationId, deps.clock.now());
  if (!updated) throw new ApiError('operation_finished', `The operation already ended with status ${row.status}.`);
  deps.resourceWatch.changed(operationId);
  return updated;
}

export async function handle(input: CancelOperationInput, ctx: HandlerContext): Promise<CancelOperationOutput> {
  return { status: 200, body: operationBody(await cancelOperation(ctx.deps, actorFrom(ctx), input.path.operation_id)) };
}
