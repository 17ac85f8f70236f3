// What every handler receives besides its typed input, and the role checks handlers share.
import type { Deps, Principal } from '../deps.ts';
import { ApiError } from '../errors.ts';

export interface HandlerContext {
  deps: Deps;
  /** Null only on public operations. */
  principal: Principal | null;
  requestId: string;
  clientAddress: string;
}

export function requirePrincipal(ctx: HandlerContext): Principal {
  if (!ctx.principal) throw new ApiError('unauthorized', 'A valid bearer credential is required.', { headers: { 'WWW-Authenticate': 'Bearer' } });
  return ctx.principal;
}

/** Owners and admins manage members and keys; an API key passes when its effective role is admin (see authenticator.ts). */
export function requireAdmin(ctx: HandlerContext): Principal {
  const principal = requirePrincipal(ctx);
  if (principal.role !== 'owner' && principal.role !== 'admin') {
    throw new ApiError('forbidden', 'Only workspace admins can do this.');
  }
  return principal;
}
