import { findConnector } from './connectors-data.ts';
import type { SyncConnectorMailboxInput, SyncConnectorMailboxOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { connectorCapabilities } from './google/google-endpoints.ts';
import { findMailboxSync, requestMailboxSync, type MailboxSyncRow } from '../replies/mailbox-syncs-data.ts';
import { syncMailboxJob } from '../replies/mailbox-sync-jobs.ts';
import { reconnectHint } from '../replies/read-failure.ts';
import { syncWatchKey } from '../replies/sync-mailbox.ts';
import { mailboxSyncBody } from './mailbox-sync-view.ts';
import { nextAction } from './wire.ts';

type SyncBody = NonNullable<ReturnType<typeof mailboxSyncBody>>;

const watchedSync: Watched<SyncBody> = {
  fingerprint: (b) => JSON.stringify([b.status, b.last_synced_at, b.last_error, b.history_id]),
  settled: (b) => b.status === 'idle',
};

/**
 * Asks for a sync of the mailbox now (one queued per mailbox: a repeated call adds nothing). With
 * `waitSeconds`, answers when that sync has run or the wait ends. A connector that may not read its
 * mailbox is a 409 that says how to give it the read_replies capability.
 */
export async function syncConnectorMailbox(
  deps: Deps,
  actor: Actor,
  request: { connectorId: string; waitSeconds: number; signal?: AbortSignal },
): Promise<SyncBody> {
  const connector = await findConnector(deps.db.sql, actor.workspaceId, request.connectorId);
  if (!connector) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
  if (!connectorCapabilities(connector).includes('read_replies'))
    throw new ApiError(
      'conflict',
      `Connector ${connector.id} may not read its mailbox (it lacks the read_replies capability), so replies are not seen. ${reconnectHint(connector.id)}`,
    );
  if (connector.status !== 'connected')
    throw new ApiError(
      'conflict',
      `Connector ${connector.id} is ${connector.status}. ${nextAction(connector) ?? ''}`.trim(),
    );
  await requestMailboxSync(deps.db.sql, actor.workspaceId, connector.id, deps.clock.now());
  await deps.jobs.enqueue(syncMailboxJob, { workspace_id: actor.workspaceId, connector_id: connector.id });
  const read = async (): Promise<SyncBody> => {
    const row: MailboxSyncRow | undefined = await findMailboxSync(deps.db.sql, actor.workspaceId, connector.id);
    return mailboxSyncBody(connector, row) as SyncBody;
  };
  return waitForChange(
    deps,
    actor,
    { id: syncWatchKey(connector.id), waitSeconds: request.waitSeconds, signal: request.signal },
    read,
    watchedSync,
  );
}

export async function handle(
  input: SyncConnectorMailboxInput,
  ctx: HandlerContext,
): Promise<SyncConnectorMailboxOutput> {
  const body = await syncConnectorMailbox(ctx.deps, actorFrom(ctx), {
    connectorId: input.path.connector_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body };
}
