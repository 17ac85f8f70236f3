import type { ListConversationRepliesInput, ListConversationRepliesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { listConversationReplyRows } from './conversation-replies-data.ts';
import { conversationReplyBody } from './reply-wire.ts';

/** The replies the workspace wrote to leads, newest first, of one lead or in some statuses when given. */
export function listConversationReplies(deps: Deps, actor: Actor, request: ListConversationRepliesInput['query']) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_conversation_replies', actor.workspaceId),
    fetch: ({ limit, after }) =>
      listConversationReplyRows(deps.db.sql, actor.workspaceId, {
        leadId: request.lead_id,
        statuses: request.status ?? [],
        before: after,
        limit,
      }),
    toItem: conversationReplyBody(deps.config.publicBaseUrl),
    position: byCreation,
  });
}

export async function handle(
  input: ListConversationRepliesInput,
  ctx: HandlerContext,
): Promise<ListConversationRepliesOutput> {
  return { status: 200, body: await listConversationReplies(ctx.deps, actorFrom(ctx), input.query) };
}
