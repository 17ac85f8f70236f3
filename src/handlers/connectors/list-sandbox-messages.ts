import { findConnector } from './connectors-data.ts';
import type { ListSandboxMessagesInput, ListSandboxMessagesOutput } from '../../generated/handlers.ts';
import { listSandboxMessageRows } from './sandbox-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { sandboxMessageBody } from './wire.ts';

export type ListSandboxMessagesRequest = ListSandboxMessagesInput['query'];

/** The workspace's sandbox mailbox: what its sandbox-mode connectors sent. Any member may read it. */
export function listSandboxMessages(deps: Deps, actor: Actor, request: ListSandboxMessagesRequest) {
  return listPage(request, {
    // A cursor pages one connector's mail (or the whole mailbox's) only.
    scope: cursorScope(deps.auth, `list_sandbox_messages:${request.connector_id ?? ''}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      let accountEmail: string | undefined;
      if (request.connector_id) {
        const connector = await findConnector(deps.db.sql, actor.workspaceId, request.connector_id);
        if (!connector) throw new ApiError('not_found', `No connector ${request.connector_id} in this workspace.`);
        if (!connector.account_email) return [];
        accountEmail = connector.account_email;
      }
      return listSandboxMessageRows(deps.db.sql, actor.workspaceId, { limit, before: after, accountEmail });
    },
    toItem: sandboxMessageBody,
    position: byCreation,
  });
}

export async function handle(input: ListSandboxMessagesInput, ctx: HandlerContext): Promise<ListSandboxMessagesOutput> {
  return { status: 200, body: await listSandboxMessages(ctx.deps, actorFrom(ctx), input.query) };
}
