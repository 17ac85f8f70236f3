// Row-to-wire shapes shared by the user, member and session operations.
import type { HandlerContext } from '../context.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  created_at: Date;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  created_at: Date;
}

export const userBody = (u: UserRow) => ({ id: u.id, email: u.email, name: u.name, created_at: u.created_at.toISOString() });
export const workspaceBody = (w: WorkspaceRow) => ({ id: w.id, name: w.name, created_at: w.created_at.toISOString() });

/** Signup and invitation acceptance both answer with the user, the workspace, the role and a login. */
export async function sessionBody(ctx: HandlerContext, user: UserRow, workspace: WorkspaceRow, role: 'owner' | 'admin' | 'member') {
  const login = await ctx.deps.jwt.sign({ userId: user.id, workspaceId: workspace.id });
  return { user: userBody(user), workspace: workspaceBody(workspace), role, login };
}

export const normaliseEmail = (email: string) => email.trim();
