import type { CancelOperationInput, CancelOperationOutput } from '../../generated/handlers.ts';
import { cancelOperation as cancel } from './cancel-operation-logic.ts';
import { operationBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function cancelOperation(input: CancelOperationInput, ctx: HandlerContext): Promise<CancelOperationOutput> {
  return { status: 200, body: operationBody(await cancel(ctx.deps, actorFrom(ctx), input.path.operation_id)) };
}
