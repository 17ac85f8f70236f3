// An API-key row as the contract shows it: in responses and in the data of its events.
import type { ApiKeyRow } from './api-keys-data.ts';
import { effectiveKeyRole } from './key-roles.ts';

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
