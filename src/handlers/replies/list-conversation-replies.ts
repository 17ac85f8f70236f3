// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { ListConversationRepliesInput, ListConversationRepliesOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: ListConversationRepliesInput,
  _ctx: HandlerContext,
): Promise<ListConversationRepliesOutput> {
  throw new Error('list-conversation-replies is not built yet');
}
