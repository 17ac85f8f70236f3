// The operator commands, over Deps, so the CLI and its tests share one implementation.
import type { Deps } from '../../src/deps.ts';
import type { ApiKeyRow, KeyRole } from '../../src/handlers/api-keys/shape.ts';
import { insertApiKey, listKeys, revokeApiKeyRow } from '../../src/handlers/api-keys/store.ts';

export interface AdminCommands {
  createWorkspace(input: { name: string; ownerEmail: string; ownerName: string; password: string }): Promise<{ workspaceId: string; userId: string; email: string }>;
  listWorkspaces(): Promise<Array<{ id: string; name: string; members: number; created_at: Date }>>;
  /** A workspace key with no creator, acting with `role` (default admin). */
  mintKey(input: { workspaceId: string; name: string; role?: KeyRole }): Promise<{ id: string; prefix: string; key: string; workspaceId: string; role: KeyRole }>;
  listKeys(workspaceId: string): Promise<ApiKeyRow[]>;
  revokeKey(keyId: string): Promise<ApiKeyRow>;
}

export function createAdminCommands(deps: Deps): AdminCommands {
  const { sql, ids, clock, apiKeyPepper, passwords, authenticator } = deps;
  return {
    async createWorkspace({ name, ownerEmail, ownerName, password }) {
      const hash = await passwords.hashPassword(password);
      const now = clock.now();
      return sql.begin(async (tx) => {
        const workspaceId = ids.make('ws');
        const userId = ids.make('usr');
        await tx`insert into workspaces (id, name, created_at) values (${workspaceId}, ${name}, ${now})`;
        await tx`insert into users (id, email, name, password_hash, created_at) values (${userId}, ${ownerEmail.trim()}, ${ownerName}, ${hash}, ${now})`;
        await tx`insert into memberships (workspace_id, user_id, role, created_at) values (${workspaceId}, ${userId}, 'owner', ${now})`;
        return { workspaceId, userId, email: ownerEmail.trim() };
      });
    },
    async listWorkspaces() {
      return sql<Array<{ id: string; name: string; members: number; created_at: Date }>>`
        select w.id, w.name, w.created_at, (select count(*)::int from memberships m where m.workspace_id = w.id) as members
        from workspaces w order by w.created_at, w.id`;
    },
    async mintKey({ workspaceId, name, role = 'admin' }) {
      if (role !== 'admin' && role !== 'member') throw new Error(`--role must be admin or member, not "${String(role)}"`);
      const [workspace] = await sql`select id from workspaces where id = ${workspaceId}`;
      if (!workspace) throw new Error(`no workspace ${workspaceId}`);
      const { row, key } = await insertApiKey(sql, ids, clock, apiKeyPepper, { workspaceId, name, createdBy: null, role });
      return { id: row.id, prefix: row.prefix, key, workspaceId, role: row.role };
    },
    async listKeys(workspaceId) {
      return listKeys(sql, workspaceId, { limit: 10_000 });
    },
    async revokeKey(keyId) {
      const [owner] = await sql<{ workspace_id: string }[]>`select workspace_id from api_keys where id = ${keyId}`;
      if (!owner) throw new Error(`no key ${keyId}`);
      const revoked = await revokeApiKeyRow(sql, clock, owner.workspace_id, keyId);
      if (!revoked) throw new Error(`no key ${keyId}`);
      // Waits until every live instance has dropped the key from its cache.
      await authenticator.settle(revoked.invalidation);
      return revoked.row;
    },
  };
}
