// The session answer of signup and invitation acceptance: the joined workspace and a login for it.
import type { Deps } from '../../deps.ts';
import type { Role } from '../members/memberships-data.ts';
import type { UserRow } from './users-data.ts';
import type { WorkspaceRow } from './workspaces-data.ts';
import { userBody, workspaceBody } from './wire.ts';

/** A person and the workspace they now belong to: what signup and both invitation acceptances yield. */
export interface JoinedWorkspace {
  user: UserRow;
  workspace: WorkspaceRow;
  role: Role;
}

/** Signup and invitation acceptance both answer with the user, the workspace, the role and a login. */
export async function sessionBody(deps: Deps, joined: JoinedWorkspace) {
  const login = await deps.auth.jwt.sign({ userId: joined.user.id, workspaceId: joined.workspace.id });
  return { user: userBody(joined.user), workspace: workspaceBody(joined.workspace), role: joined.role, login };
}
