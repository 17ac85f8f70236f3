// Fixed-window request limits shared by every instance on one database, with no database work on
// the request path: each instance counts in memory and a background sync adds its unsynced counts
// to `rate_limit_counters` and reads back the global totals.
//
// Overshoot bound: an instance admits a request when lastKnownGlobal + localUnsynced < limit, and
// it learns what the others admitted only at its next sync. So within one window the total can
// exceed the limit by at most what the other instances admit between two syncs (plus the sync's
// own latency): overshoot ≤ (instances − 1) × (requests per bucket per instance per
// syncIntervalMs), and never more than (instances − 1) × limit. With one instance it is exact.
//
// Headers follow draft-ietf-httpapi-ratelimit-headers-10 (the quota-policy syntax of -08 and
// later): `RateLimit-Policy: "<name>";q=<limit>;w=<window>` and
// `RateLimit: "<name>";r=<remaining>;t=<seconds until reset>`, plus `Retry-After` on a 429.
import type { Sql } from 'postgres';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
  /** The quota policy name used in both headers. */
  policy: string;
}

export interface RateLimiter {
  check(bucket: string, limit: number, windowSeconds: number, policy?: string): RateLimitResult;
  /** Pushes unsynced counts and refreshes global ones now (the timer does this every interval). */
  sync(): Promise<void>;
  /** Stops the timer and flushes what is unsynced. */
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  sql: Sql;
  clock: Clock;
  /** Default 1000 ms. */
  syncIntervalMs?: number;
  /** Prune expired windows from the table every this many syncs (default 60). */
  pruneEverySyncs?: number;
  /**
   * The configured window (RATE_LIMIT_WINDOW_SECONDS). Pruning keeps two of the longest window known, and every
   * process prunes the shared table: a worker, which checks no request, must still keep the instances' windows.
   */
  windowSeconds?: number;
  log?: Logger;
}

interface WindowState {
  windowStart: number;
  windowSeconds: number;
  /** Last total read from the database, including what this instance had pushed by then. */
  global: number;
  unsynced: number;
  /** Pushed by a sync whose statement has not answered yet: still counted until the new total is read. */
  pushing: number;
}

interface CounterRow {
  bucket: string;
  window_start: Date;
  count: number;
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const name = `"${result.policy.replace(/["\\]/g, '')}"`;
  const headers: Record<string, string> = {
    'RateLimit-Policy': `${name};q=${result.limit};w=${result.windowSeconds}`,
    RateLimit: `${name};r=${result.remaining};t=${result.resetSeconds}`,
  };
  if (!result.allowed) headers['Retry-After'] = String(result.resetSeconds);
  return headers;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { sql, clock, log } = options;
  const states = new Map<string, WindowState>();
  const retired: [string, WindowState][] = [];
  let syncing: Promise<void> = Promise.resolve();
  let syncCount = 0;
  let longestWindowSeconds = options.windowSeconds ?? 0;

  function stateFor(bucket: string, windowSeconds: number, nowMs: number): WindowState {
    const windowMs = windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    let state = states.get(bucket);
    if (!state || state.windowStart !== windowStart || state.windowSeconds !== windowSeconds) {
      // A window that ended with unsynced requests: the next sync still records them.
      if (state && state.unsynced > 0) retired.push([bucket, state]);
      state = { windowStart, windowSeconds, global: 0, unsynced: 0, pushing: 0 };
      states.set(bucket, state);
    }
    return state;
  }

  function check(bucket: string, limit: number, windowSeconds: number, policy = 'default'): RateLimitResult {
    const nowMs = clock.now().getTime();
    longestWindowSeconds = Math.max(longestWindowSeconds, windowSeconds);
    const state = stateFor(bucket, windowSeconds, nowMs);
    const used = state.global + state.pushing + state.unsynced;
    const allowed = used < limit;
    if (allowed) state.unsynced += 1;
    const remaining = Math.max(0, limit - used - (allowed ? 1 : 0));
    const resetSeconds = Math.max(1, Math.ceil((state.windowStart + windowSeconds * 1000 - nowMs) / 1000));
    return { allowed, limit, remaining, resetSeconds, windowSeconds, policy };
  }

  function applyTotals(rows: CounterRow[]): void {
    for (const row of rows) {
      const state = states.get(row.bucket);
      // The window may have rolled over while the statement ran: only update the one it was for.
      if (state && state.windowStart === new Date(row.window_start).getTime()) {
        state.global = Math.max(state.global, Number(row.count));
      }
    }
  }

  /** One statement for every dirty bucket: add the unsynced counts, return the new totals. */
  async function upsert(batch: [string, WindowState][]): Promise<CounterRow[]> {
    const pushed = batch.map(([, state]) => state.unsynced);
    for (const [i, [, state]] of batch.entries()) {
      state.unsynced = 0;
      state.pushing += pushed[i];
    }
    try {
      const rows = await sql<CounterRow[]>`
        insert into rate_limit_counters (bucket, window_start, count)
        select * from unnest(${sql.array(batch.map(([bucket]) => bucket))}::text[],
                             ${sql.array(batch.map(([, s]) => new Date(s.windowStart).toISOString()))}::timestamptz[],
                             ${sql.array(pushed)}::int[])
        on conflict (bucket, window_start)
        do update set count = rate_limit_counters.count + excluded.count
        returning bucket, window_start, count`;
      applyTotals(rows);
      return rows;
    } catch (error) {
      batch.forEach(([, state], i) => (state.unsynced += pushed[i]));
      throw error;
    } finally {
      // Once answered, the total read back includes what was pushed (or, on failure, unsynced holds it again).
      batch.forEach(([, state], i) => (state.pushing -= pushed[i]));
    }
  }

  async function refresh(batch: [string, WindowState][]): Promise<CounterRow[]> {
    return sql<CounterRow[]>`
      select c.bucket, c.window_start, c.count
      from rate_limit_counters c
      join unnest(${sql.array(batch.map(([bucket]) => bucket))}::text[],
                  ${sql.array(batch.map(([, s]) => new Date(s.windowStart).toISOString()))}::timestamptz[])
        as w(bucket, window_start)
        on c.bucket = w.bucket and c.window_start = w.window_start`;
  }

  /** States of windows still running, or ended with counts to push; forgets the rest. */
  function liveStates(nowMs: number): [string, WindowState][] {
    return [...states].filter(([bucket, s]) => {
      const ended = s.windowStart + s.windowSeconds * 1000 <= nowMs;
      if (ended && s.unsynced === 0) states.delete(bucket);
      return !ended || s.unsynced > 0;
    });
  }

  async function syncOnce(): Promise<void> {
    const nowMs = clock.now().getTime();
    const live = liveStates(nowMs);
    const dirty = [...retired.splice(0), ...live.filter(([, s]) => s.unsynced > 0)];
    const clean = live.filter(([, s]) => s.unsynced === 0);
    try {
      if (dirty.length) await upsert(dirty);
    } catch (error) {
      // upsert restored the counts; replaced windows must stay queued to be pushed next time.
      retired.push(...dirty.filter(([bucket, s]) => states.get(bucket) !== s));
      throw error;
    }
    if (clean.length) applyTotals(await refresh(clean));
    syncCount += 1;
    if (syncCount % (options.pruneEverySyncs ?? 60) === 0) await prune(nowMs);
  }

  async function prune(nowMs: number): Promise<void> {
    const cutoff = new Date(nowMs - 2 * Math.max(longestWindowSeconds, 60) * 1000);
    await sql`delete from rate_limit_counters where window_start < ${cutoff}`;
  }

  function sync(): Promise<void> {
    syncing = syncing.then(syncOnce).catch((error: unknown) => log?.warn({ err: error }, 'rate limit sync failed'));
    return syncing;
  }

  const timer = setInterval(() => void sync(), options.syncIntervalMs ?? 1000);
  timer.unref();

  return {
    check,
    sync,
    async close() {
      clearInterval(timer);
      await sync();
    },
  };
}
