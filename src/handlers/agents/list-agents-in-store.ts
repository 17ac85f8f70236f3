import type { ListAgentsInStoreInput, ListAgentsInStoreOutput } from '../../generated/handlers.ts';
import { listStoreAgents } from './store.ts';
import { agentBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function handle(_input: ListAgentsInStoreInput, ctx: HandlerContext): Promise<ListAgentsInStoreOutput> {
  actorFrom(ctx);
  return { status: 200, body: { data: listStoreAgents().map(agentBody) } };
}
