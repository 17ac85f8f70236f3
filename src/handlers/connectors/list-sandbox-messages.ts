import { findConnector } from './connectors-data.ts';
import type { ListSandboxMessagesInput, ListSandboxMessagesOutput } from '../../generated/handlers.ts';
import type { PageBound } from '../../db/paging.ts';
import { listSandboxMessageRows, type SandboxMessageRow } from '../../sandbox/sandbox-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { sandboxMessageBody } from './wire.ts';

/** The workspace's sandbox mailbox: what its sandbox-mode connectors sent. Any member may read it. */
export async function listSandboxMessages(deps: Deps, actor: Actor, request: { connectorId?: string; limit: number; before?: PageBound }): Promise<SandboxMessageRow[]> {
  let accountEmail: string | undefined;
  if (request.connectorId) {
    const connector = await findConnector(deps.db.sql, actor.workspaceId, request.connectorId);
    if (!connector) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
    if (!connector.account_email) return [];
    accountEmail = connector.account_email;
  }
  return listSandboxMessageRows(deps.db.sql, actor.workspaceId, { limit: request.limit, before: request.before, accountEmail });
}

export async function handle(input: ListSandboxMessagesInput, ctx: HandlerContext): Promise<ListSandboxMessagesOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_sandbox_messages:${query.connector_id ?? ''}`, actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await listSandboxMessages(ctx.deps, actor, { connectorId: query.connector_id, limit: limit + 1, before });
  return { status: 200, body: page(rows, limit, sandboxMessageBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
