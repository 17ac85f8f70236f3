// Who an operation acts for, without HTTP: a workspace, a person or none, and a role. Handlers build
// it from the request's credential; the operator CLI and background jobs build it themselves, and
// the same checks then apply to all of them.
import type { Deps } from '../deps.ts';
import type { Principal } from '../auth/principal.ts';
import { findWorkspace } from './users/workspaces-data.ts';
import type { Role } from './members/memberships-data.ts';
import { ApiError } from '../errors.ts';

export interface Actor {
  /** `user`: a person's login; `api_key`: a key; `operator`: the operator CLI or a system job. */
  kind: 'user' | 'api_key' | 'operator';
  workspaceId: string;
  /** The person acting, or the creator of the key; null for operator actors and CLI keys. */
  userId: string | null;
  role: Role;
  /** The key acting, for `api_key` actors: events name it as their actor. */
  keyId?: string;
  /** The call came through the tool server: an agent, whatever credential it holds. */
  viaTool?: boolean;
}

export function actorFromPrincipal(principal: Principal): Actor {
  return {
    kind: principal.kind === 'jwt' ? 'user' : 'api_key',
    workspaceId: principal.workspaceId,
    // CLI keys authenticate with an empty user id: no person stands behind them.
    userId: principal.userId || null,
    role: principal.role,
    ...(principal.kind === 'api_key' ? { keyId: principal.credentialId } : {}),
  };
}

/**
 * The operator acting inside a workspace with admin rights (never owner: the ownership itself is
 * not the operator's to change). Fails when the workspace does not exist, as authentication would.
 */
export async function operatorActor(deps: Deps, workspaceId: string): Promise<Actor> {
  const workspace = await findWorkspace(deps.db.sql, workspaceId);
  if (!workspace) throw new ApiError('not_found', `No workspace ${workspaceId}.`);
  return { kind: 'operator', workspaceId, userId: null, role: 'admin' };
}

/** A person acting with their own login, not an agent: neither an API key nor a tool call. */
export const isPerson = (actor: Actor): boolean => actor.kind === 'user' && !actor.viaTool;

/** Owners and admins manage members and keys; a key passes when its effective role is admin. */
export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'owner' && actor.role !== 'admin')
    throw new ApiError('forbidden', 'Only workspace admins can do this.');
}
