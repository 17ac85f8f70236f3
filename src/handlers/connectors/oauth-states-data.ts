// The oauth_states table: one row per consent link issued, single-use. Tenant rows: every function takes
// the workspace id right after the queryable, except claimState and findStateWorkspace (the callback and the
// sandbox's consent page know only the state, which names its workspace).
import { query, type Queryable } from '../../db/queryable.ts';

export interface OAuthStateRow {
  state_hash: string;
  workspace_id: string;
  connector_id: string;
  user_id: string | null;
  verifier_sealed: Uint8Array;
  token_key_id: string;
  redirect_uri: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export async function insertState(
  q: Queryable,
  workspaceId: string,
  fields: Omit<OAuthStateRow, 'workspace_id' | 'used_at'>,
): Promise<void> {
  await query(q)`
    insert into oauth_states (state_hash, workspace_id, connector_id, user_id, verifier_sealed, token_key_id, redirect_uri, created_at, expires_at)
    values (${fields.state_hash}, ${workspaceId}, ${fields.connector_id}, ${fields.user_id}, ${fields.verifier_sealed}, ${fields.token_key_id},
            ${fields.redirect_uri}, ${fields.created_at}, ${fields.expires_at})`;
}

/**
 * Marks a state used and returns it as it was before, so of two callbacks with one state only the first
 * gets `used_at: null`. Undefined when no such state was ever issued.
 */
export async function claimState(q: Queryable, stateHash: string, now: Date): Promise<OAuthStateRow | undefined> {
  const [row] = await query(q)<OAuthStateRow[]>`
    with old as (select * from oauth_states where state_hash = ${stateHash} for update)
    update oauth_states s set used_at = coalesce(s.used_at, ${now})
    from old where s.state_hash = old.state_hash
    returning old.state_hash, old.workspace_id, old.connector_id, old.user_id, old.verifier_sealed, old.token_key_id,
      old.redirect_uri, old.created_at, old.expires_at, old.used_at`;
  return row;
}

/** The workspace a state was issued in; used by the sandbox provider's consent page. */
export async function findStateWorkspace(
  q: Queryable,
  stateHash: string,
): Promise<{ workspace_id: string; expires_at: Date; used_at: Date | null } | undefined> {
  const [row] = await query(q)<{ workspace_id: string; expires_at: Date; used_at: Date | null }[]>`
    select workspace_id, expires_at, used_at from oauth_states where state_hash = ${stateHash}`;
  return row;
}
