// The messages sequences sent, are sending or gave up on.
import type { ListSentMessagesInput, ListSentMessagesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { listMessages, type MessageFilter, type MessageRow, type MessageStatus } from './sequence-messages-data.ts';
import { messageBody } from './wire.ts';

const statuses: readonly MessageStatus[] = ['scheduled', 'sending', 'sent', 'failed', 'cancelled', 'uncertain'];

export function listSentMessages(deps: Deps, actor: Actor, filter: MessageFilter): Promise<MessageRow[]> {
  return listMessages(deps.db.sql, actor.workspaceId, filter);
}

export async function handle(input: ListSentMessagesInput, ctx: HandlerContext): Promise<ListSentMessagesOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_sent_messages', actor.workspaceId);
  const wanted = commaList(query.status, 'status', statuses);
  const rows = await listSentMessages(ctx.deps, actor, {
    sequenceId: query.sequence_id,
    leadId: query.lead_id,
    // Outside, a reserved message is still scheduled.
    statuses: wanted.includes('scheduled') ? [...wanted, 'claimed'] : wanted,
    before: decodeCursor(query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, messageBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
