// What every operation's `handle` receives besides its typed input. `handle` is the thin adapter beside the
// operation's business function in the same file: it turns the request's credential into an Actor, calls
// that function, and shapes its result for the wire.
import type { Deps } from '../deps.ts';
import type { AccountLogin, Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import { actorFromPrincipal, type Actor } from './actor.ts';

export interface HandlerContext {
  deps: Deps;
  /** Null only on public operations. */
  principal: Principal | null;
  /** A login naming no workspace; set only on the operations that accept one (accept_invitation_as_me). */
  account?: AccountLogin | null;
  requestId: string;
  clientAddress: string;
  /** The request's method: a HEAD reaches a GET operation too, and tracking counts it as a machine's. */
  method?: string;
  /** Aborts when the caller goes away, so a long wait (get_operation) ends with it. */
  signal?: AbortSignal;
  /** The request is a tool call (through /mcp, or the stdio launcher), whatever the credential. */
  viaTool?: boolean;
}

export function requirePrincipal(ctx: HandlerContext): Principal {
  if (!ctx.principal)
    throw new ApiError('unauthorized', 'A valid bearer credential is required.', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  return ctx.principal;
}

/** The caller as an operation sees it; 401 when the request carries no credential. */
export const actorFrom = (ctx: HandlerContext): Actor => ({
  ...actorFromPrincipal(requirePrincipal(ctx)),
  ...(ctx.viaTool && { viaTool: true }),
});
