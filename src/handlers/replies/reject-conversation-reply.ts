import type { RejectConversationReplyInput, RejectConversationReplyOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import type { ConversationReplyRow } from './conversation-replies-data.ts';
import { rejectPending } from './reply-decision.ts';
import { conversationReplyBody } from './reply-wire.ts';

/** A person turns a reply pending approval down, with a note saying why; it is never sent. */
export function rejectConversationReply(
  deps: Deps,
  actor: Actor,
  request: { replyId: string; note: string },
): Promise<ConversationReplyRow> {
  return rejectPending(deps, actor, { replyId: request.replyId, note: request.note.trim() });
}

export async function handle(
  input: RejectConversationReplyInput,
  ctx: HandlerContext,
): Promise<RejectConversationReplyOutput> {
  const row = await rejectConversationReply(ctx.deps, actorFrom(ctx), {
    replyId: input.path.reply_id,
    note: input.body.note,
  });
  return { status: 200, body: conversationReplyBody(ctx.deps.config.publicBaseUrl)(row) };
}
