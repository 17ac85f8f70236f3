// A bounded LRU of resolved credentials (API-key rows and memberships) with a short TTL as a
// safety net, and an epoch so that a lookup racing with an eviction cannot re-insert stale data.
import type { Principal } from './principal.ts';

export interface ApiKeyEntry {
  kind: 'api_key';
  keyId: string;
  secretHash: string;
  /** Its role is the key's own; the authenticator lowers it to the creator's current role. */
  principal: Principal;
  /** Null for keys minted by the operator CLI. */
  createdBy: string | null;
}

export interface MembershipEntry {
  kind: 'membership';
  role: Principal['role'];
}

export type CacheEntry = ApiKeyEntry | MembershipEntry;

export type InvalidationTarget =
  | { type: 'api_key'; keyId: string }
  | { type: 'membership'; workspaceId: string; userId: string }
  | { type: 'all' };

export interface PrincipalCache {
  get(key: string): CacheEntry | undefined;
  /** The epoch to pass to `set`: read it before the database lookup starts. */
  epoch(): number;
  /** Stores only when no eviction happened since `epochAtLookup`; returns whether it stored. */
  set(key: string, entry: CacheEntry, epochAtLookup: number): boolean;
  evict(target: InvalidationTarget): void;
  clear(): void;
  readonly size: number;
}

export const apiKeyCacheKey = (prefix: string) => `k:${prefix}`;
export const membershipCacheKey = (workspaceId: string, userId: string) => `m:${workspaceId}\u0000${userId}`;

export function createPrincipalCache(options: {
  maxEntries: number;
  ttlMs: number;
  now: () => number;
}): PrincipalCache {
  const entries = new Map<string, { entry: CacheEntry; expiresAt: number }>();
  let epoch = 0;

  function clear(): void {
    epoch += 1;
    entries.clear();
  }

  return {
    get(key) {
      const found = entries.get(key);
      if (!found) return undefined;
      if (found.expiresAt <= options.now()) {
        entries.delete(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, found);
      return found.entry;
    },
    epoch: () => epoch,
    set(key, entry, epochAtLookup) {
      if (epochAtLookup !== epoch) return false;
      entries.delete(key);
      entries.set(key, { entry, expiresAt: options.now() + options.ttlMs });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      return true;
    },
    evict(target) {
      epoch += 1;
      if (target.type === 'all') return clear();
      // Revocations and membership changes are rare and the cache is bounded, so a scan beats
      // keeping a second index. A membership change also drops the keys that member created:
      // removal revokes them in the same transaction, so one notification covers both.
      for (const [key, { entry }] of entries) {
        if (entry.kind !== 'api_key') continue;
        const { workspaceId } = entry.principal;
        if (
          target.type === 'api_key'
            ? entry.keyId === target.keyId
            : workspaceId === target.workspaceId && entry.createdBy === target.userId
        )
          entries.delete(key);
      }
      if (target.type === 'membership') entries.delete(membershipCacheKey(target.workspaceId, target.userId));
    },
    clear,
    get size() {
      return entries.size;
    },
  };
}
