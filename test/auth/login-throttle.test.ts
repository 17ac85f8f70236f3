import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createLoginThrottle } from '../../src/auth/login-throttle.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock } from './seed.ts';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

/** Ten failures ten seconds apart, each one only after a check that let it through. */
async function failTenTimes(
  throttle: ReturnType<typeof createLoginThrottle>,
  clock: ReturnType<typeof fixedClock>,
  email: string,
) {
  for (let i = 0; i < 10; i += 1) {
    expect((await throttle.check(email, '203.0.113.7')).blocked).toBe(false);
    await throttle.recordFailure(email, '203.0.113.7');
    clock.advance(10);
  }
}

describe('LoginThrottle', () => {
  it('blocks the 11th attempt after 10 failures in 15 minutes, whatever its password', async () => {
    const clock = fixedClock();
    const throttle = createLoginThrottle({ sql: db.sql, clock });
    await failTenTimes(throttle, clock, 'ada@example.com');
    // The oldest failure was 100 s ago; it leaves the 900 s window in 800 s.
    expect(await throttle.check('ada@example.com', '203.0.113.7')).toEqual({ blocked: true, retryAfterSeconds: 800 });
  });

  it('unblocks when the oldest counted failure leaves the window', async () => {
    const clock = fixedClock();
    const throttle = createLoginThrottle({ sql: db.sql, clock });
    await failTenTimes(throttle, clock, 'grace@example.com');
    clock.advance(799);
    expect(await throttle.check('grace@example.com', '203.0.113.7')).toEqual({ blocked: true, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(await throttle.check('grace@example.com', '203.0.113.7')).toEqual({ blocked: false, retryAfterSeconds: 0 });
  });

  it('counts one email from one address only, whatever the case of the email', async () => {
    const clock = fixedClock();
    const throttle = createLoginThrottle({ sql: db.sql, clock });
    await failTenTimes(throttle, clock, 'Linus@Example.com');
    expect((await throttle.check('linus@example.com', '203.0.113.7')).blocked).toBe(true);
    expect((await throttle.check('linus@example.com', '198.51.100.1')).blocked).toBe(false);
    expect((await throttle.check('other@example.com', '203.0.113.7')).blocked).toBe(false);
  });

  it('does not block after nine failures', async () => {
    const clock = fixedClock();
    const throttle = createLoginThrottle({ sql: db.sql, clock });
    for (let i = 0; i < 9; i += 1) await throttle.recordFailure('nine@example.com', '203.0.113.7');
    expect((await throttle.check('nine@example.com', '203.0.113.7')).blocked).toBe(false);
  });

  it('drops failures older than the window when the same pair fails again', async () => {
    const clock = fixedClock();
    const throttle = createLoginThrottle({ sql: db.sql, clock });
    await throttle.recordFailure('old@example.com', '203.0.113.7');
    clock.advance(901);
    await throttle.recordFailure('old@example.com', '203.0.113.7');
    const rows = await db.sql`select 1 from login_failures where email = 'old@example.com'`;
    expect(rows).toHaveLength(1);
  });
});
