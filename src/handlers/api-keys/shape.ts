export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export const apiKeyBody = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: [...k.scopes],
  created_by: k.created_by,
  created_at: k.created_at.toISOString(),
  last_used_at: k.last_used_at ? k.last_used_at.toISOString() : null,
  revoked_at: k.revoked_at ? k.revoked_at.toISOString() : null,
});

