import { listConnectorRows } from './connectors-data.ts';
import type { ListConnectorsInput, ListConnectorsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { connectorBody } from './wire.ts';
import { mailboxSyncsOf } from './mailbox-sync-view.ts';
import { mailboxSendingOf } from './mailbox-sending.ts';

export type ListConnectorsRequest = ListConnectorsInput['query'];

/** The workspace's connectors, connected or not, newest first. */
export function listConnectors(deps: Deps, actor: Actor, request: ListConnectorsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_connectors', actor.workspaceId),
    fetch: async ({ limit, after }) => {
      const rows = await listConnectorRows(deps.db.sql, actor.workspaceId, { limit, before: after });
      const syncs = await mailboxSyncsOf(deps.db.sql, actor.workspaceId, rows);
      const sending = await mailboxSendingOf(
        deps.db.sql,
        actor.workspaceId,
        rows,
        deps.config.sequences.mailboxDailyCap,
        deps.clock.now(),
      );
      return rows.map((row) => ({ ...row, sync: syncs.get(row.id), sending: sending.get(row.id) ?? null }));
    },
    toItem: (row) => connectorBody(row, row.sync, row.sending),
    position: byCreation,
  });
}

export async function handle(input: ListConnectorsInput, ctx: HandlerContext): Promise<ListConnectorsOutput> {
  return { status: 200, body: await listConnectors(ctx.deps, actorFrom(ctx), input.query) };
}
