// API-key rows as stored and as listed, and the role a key acts with.
import type { Principal } from '../../deps.ts';

export type KeyRole = 'admin' | 'member';
export type RevokedReason = 'revoked' | 'creator_removed';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  role: KeyRole;
  created_by: string | null;
  /** The creator's current role in the key's workspace; null for CLI keys and for creators who left. */
  creator_role: Principal['role'] | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: RevokedReason | null;
}

/** Keys act as admins at most: an owner's keys cannot act on the ownership itself. */
export const keyRoleFor = (role: Principal['role']): KeyRole => (role === 'member' ? 'member' : 'admin');

/**
 * What a key may do now: its own role, lowered to its creator's current one. Undefined when it may
 * do nothing (revoked, or its creator is no longer a member).
 */
export function effectiveKeyRole(key: { role: KeyRole; created_by: string | null; creator_role: Principal['role'] | null; revoked_at?: Date | null }): KeyRole | undefined {
  if (key.revoked_at) return undefined;
  if (!key.created_by) return key.role;
  if (!key.creator_role) return undefined;
  return key.role === 'member' || key.creator_role === 'member' ? 'member' : 'admin';
}

export const apiKeyBody = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: [...k.scopes],
  role: k.role,
  effective_role: effectiveKeyRole(k) ?? null,
  created_by: k.created_by,
  created_at: k.created_at.toISOString(),
  last_used_at: k.last_used_at ? k.last_used_at.toISOString() : null,
  revoked_at: k.revoked_at ? k.revoked_at.toISOString() : null,
  revoked_reason: k.revoked_at ? (k.revoked_reason ?? 'revoked') : null,
});
