import { findConnector, type ConnectorRow } from './connectors-data.ts';
import type { GetConnectorInput, GetConnectorOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { connectorBody } from './wire.ts';
import { findMailboxSync } from '../replies/mailbox-syncs-data.ts';
import { mailboxSendingOf } from './mailbox-sending.ts';

const watchedConnector: Watched<ConnectorRow> = {
  fingerprint: (row) => row.status,
  settled: (row) => row.status !== 'pending_consent',
};

/**
 * With `waitSeconds`, a connector pending consent is answered as soon as its status changes (the human allowed
 * or denied access) or the wait ends; any other connector at once: there is nothing left to wait for.
 */
export function getConnector(
  deps: Deps,
  actor: Actor,
  request: { connectorId: string; waitSeconds: number; signal?: AbortSignal },
): Promise<ConnectorRow> {
  const read = async () => {
    const row = await findConnector(deps.db.sql, actor.workspaceId, request.connectorId);
    if (!row) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
    return row;
  };
  return waitForChange(
    deps,
    actor,
    { id: request.connectorId, waitSeconds: request.waitSeconds, signal: request.signal },
    read,
    watchedConnector,
  );
}

export async function handle(input: GetConnectorInput, ctx: HandlerContext): Promise<GetConnectorOutput> {
  const row = await getConnector(ctx.deps, actorFrom(ctx), {
    connectorId: input.path.connector_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  const sync = await findMailboxSync(ctx.deps.db.sql, row.workspace_id, row.id);
  const sending = await mailboxSendingOf(
    ctx.deps.db.sql,
    row.workspace_id,
    [row],
    ctx.deps.config.sequences.mailboxDailyCap,
    ctx.deps.clock.now(),
  );
  return { status: 200, body: connectorBody(row, sync, sending.get(row.id)) };
}
