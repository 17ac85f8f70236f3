// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { ReplyToConversationInput, ReplyToConversationOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: ReplyToConversationInput,
  _ctx: HandlerContext,
): Promise<ReplyToConversationOutput> {
  throw new Error('reply-to-conversation is not built yet');
}
