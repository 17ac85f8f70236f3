// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { ApproveConversationReplyInput, ApproveConversationReplyOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: ApproveConversationReplyInput,
  _ctx: HandlerContext,
): Promise<ApproveConversationReplyOutput> {
  throw new Error('approve-conversation-reply is not built yet');
}
