import type { ApproveConversationReplyInput, ApproveConversationReplyOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import type { ConversationReplyRow } from './conversation-replies-data.ts';
import { approvePending } from './reply-decision.ts';
import { conversationReplyBody } from './reply-wire.ts';

/** A person approves a reply pending approval, which sends it now (see reply-decision.ts for who may). */
export function approveConversationReply(
  deps: Deps,
  actor: Actor,
  request: { replyId: string },
): Promise<ConversationReplyRow> {
  return approvePending(deps, actor, request.replyId);
}

export async function handle(
  input: ApproveConversationReplyInput,
  ctx: HandlerContext,
): Promise<ApproveConversationReplyOutput> {
  const row = await approveConversationReply(ctx.deps, actorFrom(ctx), { replyId: input.path.reply_id });
  return { status: 200, body: conversationReplyBody(ctx.deps.config.publicBaseUrl)(row) };
}
