// A connected connector gaining capabilities by incremental consent (start_connector_oauth with
// reconnect_connector_id): it keeps its tokens and keeps sending while the link waits; the grant replaces them.
import { query, type Queryable } from '../../db/queryable.ts';
import { columns, type ConnectedFields, type ConnectorRow } from './connectors-data.ts';

/**
 * A connected connector asks for more (capabilities through incremental consent): it stays connected and
 * keeps sending with its tokens; only the link and the state of the consent that would add scopes are kept.
 */
export async function setUpgradeConsent(
  q: Queryable,
  workspaceId: string,
  id: string,
  link: { url: string; expiresAt: Date; stateHash: string; scopesRequested: string[]; now: Date },
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set authorization_url = ${link.url}, authorization_expires_at = ${link.expiresAt},
      pending_state_hash = ${link.stateHash}, scopes_requested = ${sql.array(link.scopesRequested)}, updated_at = ${link.now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'connected'
    returning ${columns(q)}`;
  return row;
}

/**
 * The upgrade consent of this state was granted: the new tokens and the scopes they carry replace the old.
 * The refresh lease is dropped so that a refresh of the old grant still running stores nothing over them.
 */
export async function markUpgraded(
  q: Queryable,
  workspaceId: string,
  id: string,
  stateHash: string,
  fields: Omit<ConnectedFields, 'accountEmail'>,
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set scopes_granted = ${sql.array(fields.scopesGranted)}, tokens_sealed = ${fields.tokensSealed},
      token_key_id = ${fields.tokenKeyId}, access_expires_at = ${fields.accessExpiresAt}, refresh_lease_until = null,
      authorization_url = null, authorization_expires_at = null, pending_state_hash = null, updated_at = ${fields.now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'connected' and pending_state_hash = ${stateHash}
    returning ${columns(q)}`;
  return row;
}

/** The upgrade consent of this state ended without a grant: the connector stays as it was, without the link. */
export async function dropUpgradeConsent(
  q: Queryable,
  workspaceId: string,
  id: string,
  stateHash: string,
  now: Date,
): Promise<ConnectorRow | undefined> {
  const [row] = await query(q)<ConnectorRow[]>`
    update connectors set authorization_url = null, authorization_expires_at = null, pending_state_hash = null, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'connected' and pending_state_hash = ${stateHash}
    returning ${columns(q)}`;
  return row;
}
