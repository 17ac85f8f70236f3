// The operator commands: the same operations the API runs, with an operator actor, so the CLI
// applies the same checks and writes the same rows. The CLI and its tests share this.
import { findApiKeyWorkspace, type ApiKeyRow, type KeyRole } from '../../src/handlers/api-keys/api-keys-data.ts';
import { normaliseEmail } from '../../src/auth/normalise-email.ts';
import { listAllWorkspaces, type WorkspaceSummary } from '../../src/handlers/users/workspaces-data.ts';
import type { Deps } from '../../src/deps.ts';
import { ApiError } from '../../src/errors.ts';
import { SignupRequestSchema } from '../../src/generated/routes.ts';
import { fieldErrors, textErrors } from '../../src/http/validation.ts';
import { operatorActor } from '../../src/handlers/actor.ts';
import { createApiKey } from '../../src/handlers/api-keys/create-api-key.ts';
import { listApiKeys } from '../../src/handlers/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../src/handlers/api-keys/revoke-api-key.ts';
import { signup } from '../../src/handlers/users/signup.ts';

export interface AdminCommands {
  createWorkspace(input: {
    name: string;
    ownerEmail: string;
    ownerName: string;
    password: string;
  }): Promise<{ workspaceId: string; userId: string; email: string }>;
  listWorkspaces(): Promise<WorkspaceSummary[]>;
  /** A workspace key with no creator, acting with `role` (default admin). */
  mintKey(input: {
    workspaceId: string;
    name: string;
    role?: KeyRole;
  }): Promise<{ id: string; prefix: string; key: string; workspaceId: string; role: KeyRole }>;
  listKeys(workspaceId: string): Promise<ApiKeyRow[]>;
  revokeKey(keyId: string): Promise<ApiKeyRow>;
}

/** The contract's own check of a body, so the CLI refuses what the API would refuse, field by field. */
function contractChecked(schema: typeof SignupRequestSchema, body: Record<string, unknown>): void {
  const result = schema.safeParse(body);
  const errors = [...(result.success ? [] : fieldErrors('json', result.error)), ...textErrors('json', body)];
  if (!errors.length) return;
  throw new ApiError(
    'validation_failed',
    `The request is invalid: ${errors.map((e) => `${e.pointer} ${e.message}`).join('; ')}.`,
    { errors },
  );
}

// The operator lists everything at once; a workspace with more keys than this is not a CLI's job.
const LIST_ALL = 10_000;

export function createAdminCommands(deps: Deps): AdminCommands {
  return {
    async createWorkspace({ name, ownerEmail, ownerName, password }) {
      // Typed at a shell, so surrounding spaces are forgiven before the contract's check.
      const email = normaliseEmail(ownerEmail);
      contractChecked(SignupRequestSchema, { email, password, name: ownerName, workspace_name: name });
      const { user, workspace } = await signup(deps, { email, password, name: ownerName, workspaceName: name });
      return { workspaceId: workspace.id, userId: user.id, email: user.email };
    },
    listWorkspaces: () => listAllWorkspaces(deps.db.sql),
    async mintKey({ workspaceId, name, role = 'admin' }) {
      if (role !== 'admin' && role !== 'member')
        throw new Error(`--role must be admin or member, not "${String(role)}"`);
      const { row, key } = await createApiKey(deps, await operatorActor(deps, workspaceId), { name, role });
      return { id: row.id, prefix: row.prefix, key, workspaceId, role: row.role };
    },
    async listKeys(workspaceId) {
      return listApiKeys(deps, await operatorActor(deps, workspaceId), { limit: LIST_ALL });
    },
    async revokeKey(keyId) {
      const workspaceId = await findApiKeyWorkspace(deps.db.sql, keyId);
      if (!workspaceId) throw new ApiError('not_found', `No key ${keyId}.`);
      // The same revoke as the API's: it returns once every live instance has dropped the key.
      return revokeApiKey(deps, await operatorActor(deps, workspaceId), keyId);
    },
  };
}
