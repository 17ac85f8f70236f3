// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { SimulateSandboxInboundInput, SimulateSandboxInboundOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: SimulateSandboxInboundInput,
  _ctx: HandlerContext,
): Promise<SimulateSandboxInboundOutput> {
  throw new Error('simulate-sandbox-inbound is not built yet');
}
