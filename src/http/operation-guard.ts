// What runs before every operation's handler, driven by the contract's operation table: bearer
// authentication and scope check for protected operations, throttling per credential (or per client
// address for public ones), and the request content type. The REST request of an MCP tool call takes the
// principal its /mcp request verified (and counted) instead of authenticating and counting it again.
import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../auth/authenticator.ts';
import { bearerCredentials } from '../auth/bearer-credentials.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitResult } from '../auth/rate-limiter.ts';
import type { RateLimitConfig } from '../config.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import type { OperationMeta } from '../generated/routes.ts';
import { declaresIdempotencyKey, idempotencyStep, type IdempotencyOptions } from './idempotency.ts';
import type { AppEnv } from './request-context.ts';

export interface GuardOptions {
  authenticator: Authenticator;
  limiter: RateLimiter;
  rateLimit: RateLimitConfig;
  /** Needed when an operation declares the Idempotency-Key header. */
  idempotency?: IdempotencyOptions;
}

export function hasScope(principal: Principal, required: readonly string[]): boolean {
  return required.every((scope) => principal.scopes.includes('*') || principal.scopes.includes(scope));
}

export function unauthorized(tokenSent: boolean): ApiError {
  const challenge = tokenSent ? 'Bearer error="invalid_token"' : 'Bearer';
  return new ApiError('unauthorized', 'A valid bearer credential is required: log in again or use an active API key.', {
    headers: { 'WWW-Authenticate': challenge },
  });
}

/**
 * The operations an account login (a person with no workspace left) may call: joining a workspace.
 * Every other protected operation, and /mcp, refuse it with 403 no_workspace.
 */
export const accountOperations: ReadonlySet<string> = new Set(['accept_invitation_as_me']);

export function noWorkspace(): ApiError {
  return new ApiError(
    'no_workspace',
    'This login belongs to no workspace (you were removed from your last one). Accept an invitation to a workspace with it ' +
      '(accept_invitation_as_me, POST /api/v1/invitations/accept-as-me), then use the login that answer carries.',
  );
}

/** Authenticates the caller; used by every protected operation and by /mcp. */
export function authenticate(
  authenticator: Authenticator,
  options: { acceptsAccount?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const carried = c.env?.carried;
    if (carried) {
      c.set('principal', carried.principal);
      return next();
    }
    const header = c.req.header('authorization');
    const principal = await authenticator.authenticate(header);
    if (!principal) throw unauthorized(bearerCredentials(header).length > 0);
    if (principal.kind === 'account') {
      if (!options.acceptsAccount) throw noWorkspace();
      c.set('account', principal);
    } else {
      c.set('principal', principal);
    }
    await next();
  };
}

function credentialBucket(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.credentialId}` : `user:${principal.userId}`;
}

function rateLimited(result: RateLimitResult): ApiError {
  const headers = rateLimitHeaders(result);
  return new ApiError('rate_limited', `Too many requests; retry after ${result.resetSeconds} seconds.`, { headers });
}

/**
 * Counts `requests` requests against the principal's credential, one limiter check each, and returns the
 * RateLimit headers; throws the 429 problem at the first one over the limit. /mcp counts every JSON-RPC
 * message this way, so a batch costs what its messages would cost one by one.
 */
export function countCredential(
  limiter: RateLimiter,
  config: RateLimitConfig,
  principal: Principal,
  requests: number,
): Record<string, string> {
  let result = limiter.check(credentialBucket(principal), config.perCredential, config.windowSeconds, 'credential');
  for (let i = 1; i < requests && result.allowed; i++) {
    result = limiter.check(credentialBucket(principal), config.perCredential, config.windowSeconds, 'credential');
  }
  if (!result.allowed) throw rateLimited(result);
  return rateLimitHeaders(result);
}

export function throttle(limiter: RateLimiter, config: RateLimitConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    // A tool call's credential was counted with its /mcp message; public operations still count per address.
    if (principal && c.env?.carried) return next();
    const [bucket, limit, policy] = principal
      ? [credentialBucket(principal), config.perCredential, 'credential']
      : [`addr:${c.get('clientAddress')}`, config.perAddress, 'address'];
    const result = limiter.check(bucket, limit, config.windowSeconds, policy);
    if (!result.allowed) throw rateLimited(result);
    await next();
    for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.res.headers.set(name, value);
  };
}

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** The header that lists what a method accepts besides `Accept`: Accept-Post (LDP) and Accept-Patch (RFC 5789). */
const ACCEPT_BY_METHOD: Record<string, string> = { POST: 'Accept-Post', PATCH: 'Accept-Patch' };

/** Refuses, with 415 listing every accepted media type, a body of a type the contract does not declare. */
export function requireContentType(op: OperationMeta): MiddlewareHandler<AppEnv> {
  const accepted = (op.body?.media ?? []).map((m) => m.type.toLowerCase());
  const list = accepted.join(', ');
  const headers: Record<string, string> = { Accept: list };
  if (ACCEPT_BY_METHOD[op.method]) headers[ACCEPT_BY_METHOD[op.method]] = list;
  const detail = `This operation accepts ${accepted.join(' or ')} request bodies.`;
  return async (c, next) => {
    const hasBody =
      c.req.header('content-length') !== '0' &&
      (c.req.header('content-length') !== undefined || c.req.header('transfer-encoding') !== undefined);
    if ((hasBody || op.body?.required) && !accepted.includes(mediaType(c.req.header('content-type')))) {
      throw new ApiError('unsupported_media_type', detail, { headers });
    }
    await next();
  };
}

function requireScopes(scopes: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (principal && !hasScope(principal, scopes)) {
      throw new ApiError('insufficient_scope', `This operation needs the scope ${scopes.join(', ')}.`, {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"` },
      });
    }
    await next();
  };
}

/** The middleware chain for one operation, built once at start-up. */
export function operationGuard(op: OperationMeta, options: GuardOptions): MiddlewareHandler<AppEnv>[] {
  const chain: MiddlewareHandler<AppEnv>[] = [];
  if (op.scopes)
    chain.push(
      authenticate(options.authenticator, { acceptsAccount: accountOperations.has(op.operationId) }),
      requireScopes(op.scopes),
    );
  chain.push(throttle(options.limiter, options.rateLimit));
  if (op.body) chain.push(requireContentType(op));
  // Last, so a refused, throttled or mistyped request never claims a key.
  if (declaresIdempotencyKey(op)) {
    if (!options.idempotency)
      throw new Error(`operation ${op.operationId} declares Idempotency-Key but the guard has no idempotency options`);
    chain.push(idempotencyStep(op, options.idempotency)!);
  }
  return chain;
}
