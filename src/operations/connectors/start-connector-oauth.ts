import { findConnector, insertConnector, insertState, setPendingConsent, type ConnectorRow } from '../../data/connectors.ts';
import { findUser } from '../../data/users.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { authorizationUrl, GMAIL_SCOPES } from '../../connectors/google/google-client.ts';
import type { Actor } from '../actor.ts';
import { newFlowSecrets } from './pkce.ts';

export interface StartConnectorOAuthRequest {
  provider: string;
  /** A connector of this workspace that is not connected: a fresh link for the same connector. */
  reconnectConnectorId?: string;
}

/** How long a consent link (its state) stays usable. */
export const CONSENT_TTL_MS = 10 * 60 * 1000;

export const verifierAad = (workspaceId: string, stateHash: string) => `oauth_state:${workspaceId}:${stateHash}`;

/**
 * Creates the connector in `pending_consent` (or re-issues the link of one that is not connected) with
 * a single-use state bound to the workspace, the user and the connector, and a PKCE S256 challenge whose
 * verifier stays here, sealed. Any member may connect an account for the workspace.
 */
export async function startConnectorOAuth(deps: Deps, actor: Actor, request: StartConnectorOAuthRequest): Promise<ConnectorRow> {
  if (request.provider !== 'gmail') {
    throw new ApiError('validation_failed', `Unknown provider "${request.provider}"; the mail connector is "gmail".`, {
      errors: [{ field: 'provider', code: 'unknown_provider', message: 'one of: gmail' }],
    });
  }
  const { gmail, tokenKeys, redirectUri } = deps.connectors;
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + CONSENT_TTL_MS);
  const flow = newFlowSecrets();
  const loginHint = actor.userId ? (await findUser(deps.db.sql, actor.userId))?.email : undefined;
  const url = authorizationUrl(gmail, { state: flow.state, codeChallenge: flow.challenge, redirectUri, loginHint });
  return deps.db.sql.begin(async (tx) => {
    let connector: ConnectorRow;
    if (request.reconnectConnectorId) {
      const existing = await findConnector(tx, actor.workspaceId, request.reconnectConnectorId, { forUpdate: true });
      if (!existing) throw new ApiError('not_found', `No connector ${request.reconnectConnectorId} in this workspace.`);
      if (existing.provider !== request.provider) throw new ApiError('conflict', `Connector ${existing.id} is a ${existing.provider} connector.`);
      if (existing.status === 'connected') throw new ApiError('conflict', `Connector ${existing.id} is connected; revoke it first to connect another account.`);
      connector = existing;
    } else {
      connector = await insertConnector(tx, actor.workspaceId, deps.ids, { provider: 'gmail', mode: gmail.mode, scopesRequested: GMAIL_SCOPES, createdBy: actor.userId, now });
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
    const pending = await setPendingConsent(tx, actor.workspaceId, connector.id, { url, expiresAt, stateHash: flow.stateHash, mode: gmail.mode, now });
    deps.log.info({ connector_id: pending.id, mode: gmail.mode, reconnect: Boolean(request.reconnectConnectorId) }, 'connector consent started');
    return pending;
  });
}
