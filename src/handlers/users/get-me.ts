import { ApiError } from '../../errors.ts';
import type { GetMeInput, GetMeOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { userBody, workspaceBody, type UserRow, type WorkspaceRow } from './shape.ts';

export async function getMe(_input: GetMeInput, ctx: HandlerContext): Promise<GetMeOutput> {
  const principal = requirePrincipal(ctx);
  const { sql } = ctx.deps;
  const [workspace] = await sql<WorkspaceRow[]>`select id, name, created_at from workspaces where id = ${principal.workspaceId}`;
  if (!workspace) throw new ApiError('unauthorized', 'The credential no longer belongs to a workspace.', { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
  const [user] = principal.userId
    ? await sql<UserRow[]>`select id, email, name, created_at from users where id = ${principal.userId}`
    : [];
  return {
    status: 200,
    body: {
      user: user ? userBody(user) : null,
      workspace: workspaceBody(workspace),
      role: principal.role,
      credential: { type: principal.kind, id: principal.credentialId, scopes: [...principal.scopes] },
    },
  };
}
