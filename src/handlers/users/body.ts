// The session answer of signup and invitation acceptance: the joined workspace and a login for it.
import type { Deps } from '../../deps.ts';
import type { JoinedWorkspace } from './signup-logic.ts';
import { userBody, workspaceBody } from './wire.ts';

/** Signup and invitation acceptance both answer with the user, the workspace, the role and a login. */
export async function sessionBody(deps: Deps, joined: JoinedWorkspace) {
  const login = await deps.auth.jwt.sign({ userId: joined.user.id, workspaceId: joined.workspace.id });
  return { user: userBody(joined.user), workspace: workspaceBody(joined.workspace), role: joined.role, login };
}
