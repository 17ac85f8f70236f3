// The role a key acts with: never above its creator's role now, and never owner.
import type { ApiKeyRow, KeyRole } from './api-keys-data.ts';
import type { Role } from '../members/memberships-data.ts';

/** Keys act as admins at most: an owner's keys cannot act on the ownership itself. */
export const keyRoleFor = (role: Role): KeyRole => (role === 'member' ? 'member' : 'admin');

/**
 * What a key may do now: its own role, lowered to its creator's current one. Undefined when it may
 * do nothing (revoked, or its creator is no longer a member).
 */
export function effectiveKeyRole(
  key: Pick<ApiKeyRow, 'role' | 'created_by' | 'creator_role'> & { revoked_at?: Date | null },
): KeyRole | undefined {
  if (key.revoked_at) return undefined;
  if (!key.created_by) return key.role;
  if (!key.creator_role) return undefined;
  return key.role === 'member' || key.creator_role === 'member' ? 'member' : 'admin';
}
