// A connector's tokens: sealed with the token keyring, bound to the workspace and connector, opened
// only to call the provider. `accessTokenFor` refreshes an access token shortly before it expires,
// one refresh at a time per connector across instances (a lease on the row; whoever waits gets the
// new token). `invalid_grant` ends the connection: status `expired`, tokens deleted, a
// `connector.expired` event, and a 409 saying how to reconnect.
import {
  claimRefreshLease,
  endConnection,
  findConnector,
  releaseRefreshLease,
  storeRefreshedTokens,
  type ConnectorRow,
} from './connectors-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { ProviderError, refreshAccessToken } from './google/google-client.ts';
import { recordEvent } from '../events/record-event.ts';
import { connectorEventData, nextAction } from './wire.ts';

export interface StoredTokens {
  access_token: string;
  refresh_token: string;
}

const tokenAad = (workspaceId: string, connectorId: string) => `connector:${workspaceId}:${connectorId}`;

export function sealTokens(
  deps: Deps,
  workspaceId: string,
  connectorId: string,
  tokens: StoredTokens,
): { sealed: Uint8Array; keyId: string } {
  return deps.connectors.tokenKeys.seal(tokenAad(workspaceId, connectorId), JSON.stringify(tokens));
}

export function openTokens(deps: Deps, connector: ConnectorRow): StoredTokens {
  if (!connector.tokens_sealed || !connector.token_key_id) throw new Error(`connector ${connector.id} has no tokens`);
  return JSON.parse(
    deps.connectors.tokenKeys.open(
      tokenAad(connector.workspace_id, connector.id),
      connector.tokens_sealed,
      connector.token_key_id,
    ),
  ) as StoredTokens;
}

/** Refresh when less than this is left, so a token never expires in the middle of a call. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** How long one refresh may hold the lease; past it another instance may try (the holder died). */
const LEASE_MS = 30_000;
const WAIT_STEP_MS = 1_000;

/** The 409 for a connector that cannot act now, with what to do about it. */
export function notConnected(connector: ConnectorRow): ApiError {
  const action = nextAction(connector);
  const why =
    connector.status === 'pending_consent'
      ? 'is waiting for the human to allow access'
      : `is ${connector.status}${connector.failure_reason ? ` (${connector.failure_reason})` : ''}`;
  const consent = connector.status === 'pending_consent' && connector.authorization_url;
  return new ApiError('connector_not_connected', `Connector ${connector.id} ${why}. ${action ?? ''}`.trim(), {
    errors: [{ field: 'connector_id', code: `connector_${connector.status}`, message: action ?? '' }],
    // What an MCP client that declared URL-mode elicitation is sent instead of this problem (-32042).
    ...(consent && {
      extensions: {
        elicitation: {
          mode: 'url',
          url: connector.authorization_url,
          elicitation_id: connector.pending_state_hash?.slice(0, 32) ?? connector.id,
          message: `Allow access to the ${connector.provider} account for connector ${connector.id}, then retry.`,
        },
      },
    }),
  });
}

export async function connectedConnector(deps: Deps, workspaceId: string, connectorId: string): Promise<ConnectorRow> {
  const connector = await findConnector(deps.db.sql, workspaceId, connectorId);
  if (!connector) throw new ApiError('not_found', `No connector ${connectorId} in this workspace.`);
  if (connector.status !== 'connected') throw notConnected(connector);
  return connector;
}

// One refresh per connector at a time in this process; across processes, the lease in the row.
const inflight = new WeakMap<Deps, Map<string, Promise<string>>>();

/**
 * A valid access token for a connected connector, refreshed first when it is about to expire (or
 * `force`: the provider refused the current one). No transaction stays open across the provider call
 * (on the embedded database that would hold its one connection, and in sandbox mode the provider is
 * this service): the refreshing instance takes a lease on the row, the others wait for its result.
 */
export async function accessTokenFor(
  deps: Deps,
  connector: ConnectorRow,
  options: { force?: boolean } = {},
): Promise<string> {
  const fresh = (c: ConnectorRow) =>
    c.access_expires_at !== null && c.access_expires_at.getTime() - deps.clock.now().getTime() > REFRESH_MARGIN_MS;
  if (!options.force && fresh(connector)) return openTokens(deps, connector).access_token;
  let mine = inflight.get(deps);
  if (!mine) inflight.set(deps, (mine = new Map()));
  const running = mine.get(connector.id);
  if (running) return running;
  const attempt = refreshShared(deps, connector, Boolean(options.force), fresh).finally(() =>
    mine.delete(connector.id),
  );
  mine.set(connector.id, attempt);
  return attempt;
}

async function refreshShared(
  deps: Deps,
  seen: ConnectorRow,
  force: boolean,
  fresh: (c: ConnectorRow) => boolean,
): Promise<string> {
  const { workspace_id: workspaceId, id } = seen;
  const deadline = Date.now() + 2 * LEASE_MS;
  for (;;) {
    const now = deps.clock.now();
    const claimed = await claimRefreshLease(deps.db.sql, workspaceId, id, {
      seenExpiry: seen.access_expires_at,
      force,
      until: new Date(now.getTime() + LEASE_MS),
      now,
    });
    if (claimed) return refreshWithLease(deps, claimed);
    const current = await findConnector(deps.db.sql, workspaceId, id);
    if (!current) throw new ApiError('not_found', `No connector ${id}.`);
    if (current.status !== 'connected') throw notConnected(current);
    // Another instance refreshed meanwhile: its token is the one to use.
    if (current.access_expires_at?.getTime() !== seen.access_expires_at?.getTime() && fresh(current))
      return openTokens(deps, current).access_token;
    if (Date.now() > deadline)
      throw new ApiError(
        'provider_unavailable',
        'The access token is being refreshed elsewhere and did not arrive in time; try again.',
      );
    await deps.resourceWatch.wait(id, WAIT_STEP_MS);
  }
}

/**
 * Ends a connection the provider no longer honours: status `expired`, tokens deleted, a
 * `connector.expired` event. Returns the 409 to throw, saying how to reconnect.
 */
export async function expireConnector(deps: Deps, connector: ConnectorRow, reason: string): Promise<ApiError> {
  const { workspace_id: workspaceId, id } = connector;
  const expired = await deps.db.sql.begin(async (tx) => {
    const row = await endConnection(tx, workspaceId, id, 'expired', reason, deps.clock.now());
    if (row)
      await recordEvent(
        deps,
        tx,
        workspaceId,
        { type: 'system', id: null },
        'connector.expired',
        connectorEventData(row),
      );
    return row;
  });
  deps.resourceWatch.changed(id);
  deps.log.warn({ connector_id: id, reason }, 'connector expired: the provider refused its token');
  return notConnected(
    expired ??
      (await findConnector(deps.db.sql, workspaceId, id)) ?? {
        ...connector,
        status: 'expired',
        failure_reason: reason,
      },
  );
}

async function refreshWithLease(deps: Deps, connector: ConnectorRow): Promise<string> {
  const { workspace_id: workspaceId, id } = connector;
  const tokens = openTokens(deps, connector);
  let refreshed;
  try {
    refreshed = await refreshAccessToken(deps.connectors.gmail, tokens.refresh_token);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'invalid_grant')
      throw await expireConnector(deps, connector, 'refresh_token_invalid');
    await releaseRefreshLease(deps.db.sql, workspaceId, id);
    if (error instanceof ProviderError)
      throw new ApiError('provider_unavailable', `The access token could not be refreshed: ${error.message}.`);
    throw error;
  }
  const sealed = sealTokens(deps, workspaceId, id, {
    access_token: refreshed.accessToken,
    refresh_token: refreshed.refreshToken ?? tokens.refresh_token,
  });
  const now = deps.clock.now();
  await storeRefreshedTokens(deps.db.sql, workspaceId, id, {
    tokensSealed: sealed.sealed,
    tokenKeyId: sealed.keyId,
    accessExpiresAt: new Date(now.getTime() + refreshed.expiresIn * 1000),
    now,
  });
  deps.resourceWatch.changed(id);
  deps.log.info({ connector_id: id }, 'connector access token refreshed');
  return refreshed.accessToken;
}
