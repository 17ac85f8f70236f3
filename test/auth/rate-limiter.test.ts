import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createRateLimiter, rateLimitHeaders, type RateLimiter } from '../../src/auth/rate-limiter.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock } from './seed.ts';

let db: Database;
const limiters: RateLimiter[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
  await db.close();
});

/** The background timer is pushed out of the way; tests call sync() themselves. */
function limiter(clock = fixedClock(), options: { pruneEverySyncs?: number; windowSeconds?: number } = {}) {
  const created = createRateLimiter({ sql: db.sql, clock, syncIntervalMs: 3_600_000, ...options });
  limiters.push(created);
  return created;
}

async function storedCount(bucket: string): Promise<number> {
  const rows = await db.sql<{ total: number }[]>`
    select coalesce(sum(count), 0)::int as total from rate_limit_counters where bucket = ${bucket}`;
  return rows[0].total;
}

describe('RateLimiter', () => {
  it('keeps counting requests whose counts a running sync is pushing', async () => {
    const rl = limiter();
    expect(rl.check('in-flight', 2, 60).allowed).toBe(true);
    // Hold the counters table so the sync's statement waits, then check while it is in flight.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.sql.begin(async (tx) => {
      await tx`lock table rate_limit_counters in exclusive mode`;
      locked();
      await held;
    });
    await isLocked;
    const syncing = rl.sync();
    await new Promise((resolve) => setImmediate(resolve));
    const meanwhile = [rl.check('in-flight', 2, 60).allowed, rl.check('in-flight', 2, 60).allowed];
    release();
    await holder;
    await syncing;
    expect(meanwhile).toEqual([true, false]);
    expect(rl.check('in-flight', 2, 60).allowed).toBe(false);
  });

  it('allows up to the limit in a window and refuses the rest', () => {
    const clock = fixedClock();
    const rl = limiter(clock);
    const results = Array.from({ length: 5 }, () => rl.check('enforce', 3, 60));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
    clock.advance(60);
    expect(rl.check('enforce', 3, 60)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps buckets apart', () => {
    const rl = limiter();
    expect(rl.check('a', 1, 60).allowed).toBe(true);
    expect(rl.check('a', 1, 60).allowed).toBe(false);
    expect(rl.check('b', 1, 60).allowed).toBe(true);
  });

  it('gives the values of the RateLimit-Policy, RateLimit and Retry-After headers', () => {
    const clock = fixedClock();
    clock.advance(15);
    const rl = limiter(clock);
    const first = rl.check('headers', 2, 60, 'per-key');
    expect(first).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetSeconds: 45,
      windowSeconds: 60,
      policy: 'per-key',
    });
    expect(rateLimitHeaders(first)).toEqual({
      'RateLimit-Policy': '"per-key";q=2;w=60',
      RateLimit: '"per-key";r=1;t=45',
    });
    rl.check('headers', 2, 60, 'per-key');
    clock.advance(0.5);
    const refused = rl.check('headers', 2, 60, 'per-key');
    expect(rateLimitHeaders(refused)).toEqual({
      'RateLimit-Policy': '"per-key";q=2;w=60',
      RateLimit: '"per-key";r=0;t=45',
      'Retry-After': '45',
    });
  });

  it('writes nothing to the database on the request path', async () => {
    const rl = limiter();
    for (let i = 0; i < 10; i += 1) rl.check('no-writes', 100, 60);
    expect(await storedCount('no-writes')).toBe(0);
    await rl.sync();
    expect(await storedCount('no-writes')).toBe(10);
  });

  it('shares one limit between two instances once they have synced', async () => {
    const clock = fixedClock();
    const [a, b] = [limiter(clock), limiter(clock)];
    for (let i = 0; i < 3; i += 1) expect(a.check('shared', 4, 60).allowed).toBe(true);
    await a.sync();
    expect(b.check('shared', 4, 60).allowed).toBe(true);
    await b.sync();
    expect(b.check('shared', 4, 60)).toMatchObject({ allowed: false, remaining: 0 });
    await a.sync();
    expect(a.check('shared', 4, 60)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await storedCount('shared')).toBe(4);
  });

  it('still records the counts of a window that ended before it was synced', async () => {
    const clock = fixedClock();
    const rl = limiter(clock);
    rl.check('rollover', 10, 60);
    rl.check('rollover', 10, 60);
    clock.advance(60);
    expect(rl.check('rollover', 10, 60).remaining).toBe(9);
    await rl.sync();
    expect(await storedCount('rollover')).toBe(3);
  });

  it('flushes unsynced counts on close', async () => {
    const rl = limiter();
    rl.check('closing', 10, 60);
    rl.check('closing', 10, 60);
    await rl.close();
    expect(await storedCount('closing')).toBe(2);
  });

  it('prunes windows that ended long ago', async () => {
    const clock = fixedClock();
    const rl = limiter(clock, { pruneEverySyncs: 1 });
    rl.check('old', 10, 60);
    await rl.sync();
    expect(await storedCount('old')).toBe(1);
    clock.advance(24 * 3600);
    rl.check('fresh', 10, 60);
    await rl.sync();
    expect(await storedCount('old')).toBe(0);
    expect(await storedCount('fresh')).toBe(1);
  });

  it('keeps a running window longer than a minute when a process that counted nothing prunes', async () => {
    const clock = fixedClock();
    const instance = limiter(clock, { windowSeconds: 3600 });
    // A worker: the same configured window, no request ever checked, and it prunes the shared table too.
    const worker = limiter(clock, { pruneEverySyncs: 1, windowSeconds: 3600 });
    instance.check('hourly', 10, 3600);
    await instance.sync();
    clock.advance(30 * 60);
    await worker.sync();
    expect(await storedCount('hourly')).toBe(1);
  });
});
