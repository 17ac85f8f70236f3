// The messages sequences sent, are sending or gave up on.
import type { ListSentMessagesInput, ListSentMessagesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { listMessages, type MessageStatus } from './sequence-messages-data.ts';
import { messageBody } from './wire.ts';

export type ListSentMessagesRequest = ListSentMessagesInput['query'];

/** Outside, a message reserved by a sender (`claimed`) is still scheduled: asking for one asks for both. */
const storedStatuses = (wanted: MessageStatus[]): MessageStatus[] =>
  wanted.includes('scheduled') ? [...wanted, 'claimed'] : wanted;

/** The workspace's messages, newest first, of one sequence or lead when given. */
export function listSentMessages(deps: Deps, actor: Actor, request: ListSentMessagesRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_sent_messages', actor.workspaceId),
    fetch: ({ limit, after }) =>
      listMessages(deps.db.sql, actor.workspaceId, {
        sequenceId: request.sequence_id,
        leadId: request.lead_id,
        statuses: storedStatuses(request.status ?? []),
        before: after,
        limit,
      }),
    toItem: messageBody,
    position: byCreation,
  });
}

export async function handle(input: ListSentMessagesInput, ctx: HandlerContext): Promise<ListSentMessagesOutput> {
  return { status: 200, body: await listSentMessages(ctx.deps, actorFrom(ctx), input.query) };
}
