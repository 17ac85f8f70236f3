// Resolves an Authorization header to a Principal: API keys by prefix + peppered HMAC, JWTs by
// signature + a still-existing membership. Resolved rows are cached in memory and evicted through
// LISTEN/NOTIFY (see invalidation-listener.ts), so a request normally costs no database round trip
// while revocations still apply on the next request on every instance.
//
// Guarantee: every instance evicts when the invalidation notification reaches it, which
// PostgreSQL sends at the commit of the revoking transaction. Once `settle(invalidation)` has
// resolved true, every live instance has acknowledged it, so the very next request anywhere is
// rejected. An instance whose LISTEN connection is broken stops using its cache within two
// heartbeats (and clears it on re-LISTEN); the cache TTL bounds staleness if all else fails.
import { createSecretKey } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Logger } from 'pino';
import { findActiveKeyByPrefix, findMemberRole, userExists, type ActiveKeyRow } from './credentials-data.ts';
import type { AccountLogin, Principal } from './principal.ts';
import type { Clock } from '../clock.ts';
import { parseApiKey, verifySecret } from './api-keys.ts';
import { bearerCredentials } from './bearer-credentials.ts';
import type { Invalidation } from './invalidation.ts';
import { createInvalidationListener, type InvalidationListener } from './invalidation-listener.ts';
import type { JwtService } from './jwt.ts';
import { createLastUsedRecorder } from './last-used.ts';
import { apiKeyCacheKey, createPrincipalCache, membershipCacheKey, type ApiKeyEntry } from './principal-cache.ts';

export interface AuthenticatorOptions {
  sql: Sql;
  jwt: JwtService;
  pepper: Uint8Array;
  clock: Clock;
  log?: Logger;
  /**
   * `notify` (default): LISTEN/NOTIFY across instances. `local`: evict in this process only, for
   * the embedded database, which serves exactly one instance.
   */
  invalidation?: 'notify' | 'local';
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  heartbeatMs?: number;
  lastUsedFlushMs?: number;
  /** How long `settle` waits for its own notification to come back. */
  settleTimeoutMs?: number;
}

export interface Authenticator {
  /**
   * Reads the header once; the first valid bearer credential wins; null when none is valid. An account
   * login (a person's token naming no workspace) is not a Principal: the caller decides what it may do.
   */
  authenticate(authorizationHeader: string | undefined): Promise<Principal | AccountLogin | null>;
  /**
   * Call after the transaction that sent `invalidation` has committed: evicts here at once, then
   * waits (up to `settleTimeoutMs`) until every live instance has acknowledged it.
   */
  settle(invalidation: Invalidation): Promise<void>;
  /** Resolves true once the cache is in use (listening), false after the timeout. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Stops listening and flushes last-used times. */
  close(): Promise<void>;
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { sql, jwt, pepper, clock, log } = options;
  if (pepper.length < 32) throw new Error('authenticator: the API-key pepper must have at least 32 bytes');
  const pepperKey = createSecretKey(pepper);
  const now = () => clock.now().getTime();
  const cache = createPrincipalCache({
    maxEntries: options.cacheMaxEntries ?? 10_000,
    ttlMs: options.cacheTtlMs ?? 30_000,
    now,
  });
  const lastUsed = createLastUsedRecorder({ sql, flushIntervalMs: options.lastUsedFlushMs, log });
  const listener: InvalidationListener | undefined =
    options.invalidation === 'local'
      ? undefined
      : createInvalidationListener({
          sql,
          log,
          heartbeatMs: options.heartbeatMs ?? 1000,
          onInvalidate: (target) => cache.evict(target),
          onReset: () => cache.clear(),
        });
  const cacheUsable = () => listener === undefined || listener.healthy();

  async function loadApiKey(prefix: string): Promise<ApiKeyEntry | undefined> {
    const key = apiKeyCacheKey(prefix);
    const cached = cacheUsable() ? cache.get(key) : undefined;
    if (cached?.kind === 'api_key') return cached;
    const epoch = cache.epoch();
    const row = await findActiveKeyByPrefix(sql, prefix);
    if (!row) return undefined;
    const entry = apiKeyEntry(row);
    if (cacheUsable()) cache.set(key, entry, epoch);
    return entry;
  }

  async function fromApiKey(text: string): Promise<Principal | null> {
    const parsed = parseApiKey(text);
    if (!parsed) return null;
    const entry = await loadApiKey(parsed.prefix);
    if (!entry || !verifySecret(parsed.secret, entry.secretHash, pepperKey)) return null;
    const role = await keyRole(entry);
    if (!role) return null;
    lastUsed.touch(entry.keyId, clock.now());
    return role === entry.principal.role ? entry.principal : Object.freeze({ ...entry.principal, role });
  }

  /**
   * A key never carries more than its creator has now: its own role, lowered to the creator's
   * current membership (cached and invalidated like a JWT's), and nothing once the creator left.
   */
  async function keyRole(entry: ApiKeyEntry): Promise<Principal['role'] | undefined> {
    if (!entry.createdBy) return entry.principal.role;
    const creatorRole = await loadRole(entry.principal.workspaceId, entry.createdBy);
    if (!creatorRole) return undefined;
    return creatorRole === 'member' ? 'member' : entry.principal.role;
  }

  async function loadRole(workspaceId: string, userId: string): Promise<Principal['role'] | undefined> {
    const key = membershipCacheKey(workspaceId, userId);
    const cached = cacheUsable() ? cache.get(key) : undefined;
    if (cached?.kind === 'membership') return cached.role;
    const epoch = cache.epoch();
    const role = await findMemberRole(sql, workspaceId, userId);
    if (!role) return undefined;
    if (cacheUsable()) cache.set(key, { kind: 'membership', role }, epoch);
    return role;
  }

  async function fromJwt(text: string): Promise<Principal | AccountLogin | null> {
    const token = await jwt.verify(text);
    if (!token) return null;
    // Rare (a person with no workspace left), so not cached: the account must still exist.
    if (token.workspaceId === null) {
      return (await userExists(sql, token.userId))
        ? { kind: 'account', userId: token.userId, credentialId: token.jti }
        : null;
    }
    const role = await loadRole(token.workspaceId, token.userId);
    if (!role) return null;
    return {
      kind: 'jwt',
      userId: token.userId,
      workspaceId: token.workspaceId,
      role,
      scopes: ['*'],
      credentialId: token.jti,
    };
  }

  return {
    async authenticate(header) {
      for (const credential of bearerCredentials(header)) {
        const principal = credential.startsWith('svc_') ? await fromApiKey(credential) : await fromJwt(credential);
        if (principal) return principal;
      }
      return null;
    },
    async settle(invalidation) {
      cache.evict(invalidation.target);
      if (!listener || !invalidation.nonce) return;
      const confirmed = await listener.waitFor(invalidation.nonce, options.settleTimeoutMs ?? 5000);
      if (!confirmed)
        log?.warn({ target: invalidation.target }, 'not every instance confirmed the invalidation in time');
    },
    ready: async (timeoutMs = 5000) => listener === undefined || listener.ready(timeoutMs),
    async close() {
      await listener?.close();
      await lastUsed.close();
    },
  };
}

/**
 * An API key is an integration of its workspace acting with its own role (admin or member); the
 * principal's userId is the creator (empty for keys minted by the operator CLI without a user).
 */
function apiKeyEntry(row: ActiveKeyRow): ApiKeyEntry {
  const principal: Principal = Object.freeze({
    kind: 'api_key' as const,
    userId: row.created_by ?? '',
    workspaceId: row.workspace_id,
    role: row.role,
    scopes: Object.freeze([...row.scopes]) as string[],
    credentialId: row.id,
  });
  return { kind: 'api_key', keyId: row.id, secretHash: row.secret_hash, principal, createdBy: row.created_by };
}
