import { endConnection, findConnector, type ConnectorRow } from './connectors-data.ts';
import type { RevokeConnectorInput, RevokeConnectorOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { providerFor } from './providers/providers.ts';
import { openTokens } from './tokens.ts';
import { connectorBody, connectorEventData } from './wire.ts';
import { requireConnectorManager } from './connector-permission.ts';

async function requireConnector(deps: Deps, actor: Actor, connectorId: string): Promise<ConnectorRow> {
  const connector = await findConnector(deps.db.sql, actor.workspaceId, connectorId);
  if (!connector) throw new ApiError('not_found', `No connector ${connectorId} in this workspace.`);
  return connector;
}

/**
 * Revokes the grant at the provider, then deletes the tokens: status `revoked`, `connector.revoked`.
 * If the provider cannot be reached the connector stays as it was and the call fails with 502, so a
 * grant is never forgotten here while still alive there. Revoking twice is a no-op.
 */
export async function revokeConnector(deps: Deps, actor: Actor, connectorId: string): Promise<ConnectorRow> {
  const connector = await requireConnector(deps, actor, connectorId);
  requireConnectorManager(actor, connector, 'revoke a connector');
  if (connector.status === 'revoked') return connector;
  if (connector.tokens_sealed) {
    await providerFor(connector.provider)?.revoke(deps, openTokens(deps, connector));
  }
  const revoked = await deps.db.sql.begin(async (tx) => {
    const row = await endConnection(tx, actor.workspaceId, connectorId, 'revoked', null, deps.clock.now());
    if (row)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'connector.revoked', connectorEventData(row));
    return row;
  });
  if (revoked) {
    deps.resourceWatch.changed(connectorId);
    return revoked;
  }
  // Revoked by another call meanwhile: answer with it as it is now.
  return requireConnector(deps, actor, connectorId);
}

export async function handle(input: RevokeConnectorInput, ctx: HandlerContext): Promise<RevokeConnectorOutput> {
  return { status: 200, body: connectorBody(await revokeConnector(ctx.deps, actorFrom(ctx), input.path.connector_id)) };
}
