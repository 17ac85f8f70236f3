import type { GetAgentInput, GetAgentOutput } from '../../generated/handlers.ts';
import { findStoreAgent } from './store.ts';
import { agentBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function handle(input: GetAgentInput, ctx: HandlerContext): Promise<GetAgentOutput> {
  actorFrom(ctx);
  return { status: 200, body: agentBody(findStoreAgent(input.path.agent_id)) };
}
