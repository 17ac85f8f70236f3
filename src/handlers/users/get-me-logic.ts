import { findUser, type UserRow } from './users-data.ts';
import { findWorkspace, type WorkspaceRow } from './workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';

/** The actor's workspace and person (none for operator actors and CLI keys). */
export async function getMe(deps: Deps, actor: Actor): Promise<{ user: UserRow | null; workspace: WorkspaceRow }> {
  const workspace = await findWorkspace(deps.db.sql, actor.workspaceId);
  if (!workspace) throw new ApiError('unauthorized', 'The credential no longer belongs to a workspace.', { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
  const user = actor.userId ? await findUser(deps.db.sql, actor.userId) : undefined;
  return { user: user ?? null, workspace };
}
