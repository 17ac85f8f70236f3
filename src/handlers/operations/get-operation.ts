import type { GetOperationInput, GetOperationOutput } from '../../generated/handlers.ts';
import { getOperation as get } from './get-operation-logic.ts';
import { operationBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function getOperation(input: GetOperationInput, ctx: HandlerContext): Promise<GetOperationOutput> {
  const row = await get(ctx.deps, actorFrom(ctx), { operationId: input.path.operation_id, waitSeconds: input.query.wait_seconds ?? 0, signal: ctx.signal });
  return { status: 200, body: operationBody(row) };
}
