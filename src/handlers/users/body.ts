// Users, workspaces and sessions as the contract shows them.
import type { UserRow } from '../../data/users.ts';
import type { WorkspaceRow } from '../../data/workspaces.ts';
import type { Deps } from '../../deps.ts';
import type { JoinedWorkspace } from '../../operations/users/signup.ts';

export const userBody = (u: UserRow) => ({ id: u.id, email: u.email, name: u.name, created_at: u.created_at.toISOString() });
export const workspaceBody = (w: WorkspaceRow) => ({ id: w.id, name: w.name, created_at: w.created_at.toISOString() });

/** Signup and invitation acceptance both answer with the user, the workspace, the role and a login. */
export async function sessionBody(deps: Deps, joined: JoinedWorkspace) {
  const login = await deps.auth.jwt.sign({ userId: joined.user.id, workspaceId: joined.workspace.id });
  return { user: userBody(joined.user), workspace: workspaceBody(joined.workspace), role: joined.role, login };
}
