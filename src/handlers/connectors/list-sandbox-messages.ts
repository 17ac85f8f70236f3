import type { ListSandboxMessagesInput, ListSandboxMessagesOutput } from '../../generated/handlers.ts';
import { listSandboxMessages as list } from './list-sandbox-messages-logic.ts';
import { sandboxMessageBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';

export async function listSandboxMessages(input: ListSandboxMessagesInput, ctx: HandlerContext): Promise<ListSandboxMessagesOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_sandbox_messages:${query.connector_id ?? ''}`, actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await list(ctx.deps, actor, { connectorId: query.connector_id, limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, sandboxMessageBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
