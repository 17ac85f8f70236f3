import type { GetMeInput, GetMeOutput } from '../../generated/handlers.ts';
import { actorFromPrincipal } from '../actor.ts';
import { getMe as me } from './get-me-logic.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { userBody, workspaceBody } from './wire.ts';

export async function getMe(_input: GetMeInput, ctx: HandlerContext): Promise<GetMeOutput> {
  const principal = requirePrincipal(ctx);
  const { user, workspace } = await me(ctx.deps, actorFromPrincipal(principal));
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
