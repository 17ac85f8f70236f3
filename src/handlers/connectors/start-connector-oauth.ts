import { findConnector, insertConnector, setPendingConsent, type ConnectorRow } from './connectors-data.ts';
import { setUpgradeConsent } from './connector-upgrade-data.ts';
import { insertState } from './oauth-states-data.ts';
import { findUser } from '../users/users-data.ts';
import type { StartConnectorOauthInput, StartConnectorOauthOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { newFlowSecrets } from './pkce.ts';
import { connectorCapabilities, includeGrantedScopes, type GmailCapability } from './google/google-endpoints.ts';
import type { ConnectorProvider } from './providers/provider.ts';
import { connectorProviders, providerFor } from './providers/providers.ts';
import { connectorBody } from './wire.ts';

export interface StartConnectorOauthRequest {
  provider: string;
  /**
   * A connector of this workspace: not connected, a fresh link for the same connector; connected, a link that
   * adds `capabilities` to it (it keeps its tokens and stays connected meanwhile).
   */
  reconnectConnectorId?: string;
  /** What a mailbox may do (gmail); the scopes asked follow from it. */
  capabilities?: string[];
}

/** How long a consent link (its state) stays usable. */
export const CONSENT_TTL_MS = 10 * 60 * 1000;

export const verifierAad = (workspaceId: string, stateHash: string) => `oauth_state:${workspaceId}:${stateHash}`;

/**
 * Creates the connector in `pending_consent` (or re-issues the link of one that is not connected, or of a
 * connected one that adds capabilities) with a single-use state bound to the workspace, the user and the connector, and a PKCE S256 challenge whose
 * verifier stays here, sealed. Any member may connect an account for the workspace.
 */
export async function startConnectorOauth(
  deps: Deps,
  actor: Actor,
  request: StartConnectorOauthRequest,
): Promise<ConnectorRow> {
  const provider = providerFor(request.provider);
  if (!provider) {
    const known = Object.keys(connectorProviders).join(', ');
    throw new ApiError(
      'validation_failed',
      `Unknown provider "${request.provider}"; "gmail" connects a mailbox, "meta_ads" an ads account.`,
      {
        errors: [{ field: 'provider', code: 'unknown_provider', message: `one of: ${known}` }],
      },
    );
  }
  const existing = request.reconnectConnectorId
    ? await findConnector(deps.db.sql, actor.workspaceId, request.reconnectConnectorId)
    : undefined;
  if (request.reconnectConnectorId && !existing)
    throw new ApiError('not_found', `No connector ${request.reconnectConnectorId} in this workspace.`);
  if (existing && existing.provider !== request.provider)
    throw new ApiError('conflict', `Connector ${existing.id} is a ${existing.provider} connector.`);
  const upgrade = existing?.status === 'connected' ? existing : undefined;
  const scopes = upgrade ? upgradeScopes(provider, upgrade, request) : scopesAsked(provider, request);
  const { tokenKeys, redirectUri } = deps.connectors;
  const mode = provider.mode(deps);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + CONSENT_TTL_MS);
  const flow = newFlowSecrets();
  const loginHint =
    upgrade?.account_email ?? (actor.userId ? (await findUser(deps.db.sql, actor.userId))?.email : undefined);
  const url = provider.consentUrl(deps, {
    state: flow.state,
    codeChallenge: flow.challenge,
    redirectUri,
    loginHint,
    scopes,
    includeGrantedScopes: upgrade ? includeGrantedScopes(upgrade.scopes_granted, scopes) : true,
  });
  return deps.db.sql.begin(async (tx) => {
    let connector: ConnectorRow;
    if (existing) {
      const locked = await findConnector(tx, actor.workspaceId, existing.id, { forUpdate: true });
      // The connector changed between the look and the lock (connected, or revoked): ask again.
      if (!locked || (locked.status === 'connected') !== Boolean(upgrade))
        throw new ApiError('conflict', `Connector ${existing.id} changed meanwhile; start again.`);
      connector = locked;
    } else {
      connector = await insertConnector(tx, actor.workspaceId, deps.ids, {
        provider: request.provider,
        mode,
        scopesRequested: scopes,
        createdBy: actor.userId,
        now,
      });
    }
    const sealed = tokenKeys.seal(verifierAad(actor.workspaceId, flow.stateHash), flow.verifier);
    await insertState(tx, actor.workspaceId, {
      state_hash: flow.stateHash,
      connector_id: connector.id,
      user_id: actor.userId,
      verifier_sealed: sealed.sealed,
      token_key_id: sealed.keyId,
      redirect_uri: redirectUri,
      created_at: now,
      expires_at: expiresAt,
    });
    const link = { url, expiresAt, stateHash: flow.stateHash, scopesRequested: scopes, now };
    const pending = upgrade
      ? ((await setUpgradeConsent(tx, actor.workspaceId, connector.id, link)) as ConnectorRow)
      : await setPendingConsent(tx, actor.workspaceId, connector.id, { ...link, mode });
    deps.log.info(
      {
        connector_id: pending.id,
        provider: request.provider,
        mode,
        reconnect: Boolean(existing),
        upgrade: Boolean(upgrade),
      },
      'connector consent started',
    );
    return pending;
  });
}

function scopesAsked(provider: ConnectorProvider, request: StartConnectorOauthRequest): string[] {
  if (request.capabilities?.length && !provider.scopesFor)
    throw new ApiError('validation_failed', `A ${request.provider} connector has no capabilities to choose.`, {
      errors: [{ field: 'capabilities', code: 'not_a_mailbox', message: 'Only gmail takes capabilities.' }],
    });
  return provider.scopesFor ? provider.scopesFor(request.capabilities ?? ['send']) : provider.scopes;
}

/**
 * A connected connector is reconnected only to add capabilities (incremental consent): the consent asks for
 * what it has and what is added, and it keeps sending with its tokens until the human allows it.
 */
function upgradeScopes(provider: ConnectorProvider, connector: ConnectorRow, request: StartConnectorOauthRequest) {
  const has = connectorCapabilities(connector);
  const added = (request.capabilities ?? []).filter((c) => !has.includes(c as GmailCapability));
  if (!provider.scopesFor || added.length === 0)
    throw new ApiError(
      'conflict',
      `Connector ${connector.id} is connected and already has ${request.capabilities?.length ? `the capabilities ${request.capabilities.join(', ')}` : 'what it asks for'} (it has ${has.join(', ') || 'none'}); to connect another account, revoke it first.`,
    );
  return scopesAsked(provider, { ...request, capabilities: [...has, ...added] });
}

export async function handle(input: StartConnectorOauthInput, ctx: HandlerContext): Promise<StartConnectorOauthOutput> {
  const row = await startConnectorOauth(ctx.deps, actorFrom(ctx), {
    provider: input.body.provider,
    reconnectConnectorId: input.body.reconnect_connector_id,
    capabilities: input.body.capabilities,
  });
  return { status: 201, body: connectorBody(row) };
}
