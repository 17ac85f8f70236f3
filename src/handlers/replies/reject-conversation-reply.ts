// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { RejectConversationReplyInput, RejectConversationReplyOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: RejectConversationReplyInput,
  _ctx: HandlerContext,
): Promise<RejectConversationReplyOutput> {
  throw new Error('reject-conversation-reply is not built yet');
}
