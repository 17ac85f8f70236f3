import type { CancelOperationInput, CancelOperationOutput } from '../../generated/handlers.ts';
import { cancelOperation as cancel } from '../../operations/long-work/cancel-operation.ts';
import { operationBody } from '../../operations/long-work/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function cancelOperation(input: CancelOperationInput, ctx: HandlerContext): Promise<CancelOperationOutput> {
  return { status: 200, body: operationBody(await cancel(ctx.deps, actorFrom(ctx), input.path.operation_id)) };
}
