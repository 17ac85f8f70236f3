// get_me: the caller's person, workspace, role and credential.
import { findUser, type UserRow } from './users-data.ts';
import { findWorkspace, type WorkspaceRow } from './workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { GetMeInput, GetMeOutput } from '../../generated/handlers.ts';
import { actorFromPrincipal, type Actor } from '../actor.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { userBody, workspaceBody } from './wire.ts';

/** The actor's workspace and person (none for operator actors and CLI keys). */
export async function getMe(deps: Deps, actor: Actor): Promise<{ user: UserRow | null; workspace: WorkspaceRow }> {
  const workspace = await findWorkspace(deps.db.sql, actor.workspaceId);
  if (!workspace)
    throw new ApiError('unauthorized', 'The credential no longer belongs to a workspace.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  const user = actor.userId ? await findUser(deps.db.sql, actor.userId) : undefined;
  return { user: user ?? null, workspace };
}

export async function handle(_input: GetMeInput, ctx: HandlerContext): Promise<GetMeOutput> {
  const principal = requirePrincipal(ctx);
  const { user, workspace } = await getMe(ctx.deps, actorFromPrincipal(principal));
  return {
    status: 200,
    body: {
      user: user ? userBody(user) : null,
      workspace: workspaceBody(workspace),
      role: principal.role,
      // The credential is the request's own, not something the operation knows.
      credential: { type: principal.kind, id: principal.credentialId, scopes: [...principal.scopes] },
    },
  };
}
