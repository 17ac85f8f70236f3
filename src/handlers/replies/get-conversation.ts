// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { GetConversationInput, GetConversationOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(_input: GetConversationInput, _ctx: HandlerContext): Promise<GetConversationOutput> {
  throw new Error('get-conversation is not built yet');
}
