// Brute-force protection for login: after `maxFailures` failed attempts for one email from one
// client address within `windowSeconds`, further attempts are refused, even with the right
// password, until enough of those failures have aged out of the window.
//
// A successful login does not clear the failures. Clearing them would let an attacker who
// guesses in parallel, or who also knows one valid password, reset the counter; not clearing
// costs a legitimate user at most one window after a burst of typos. Refused attempts are not
// recorded (the password is not even checked), so a blocked client cannot extend its own block.
//
// Emails are compared in any letter case, as accounts are (see normaliseEmail). Login is rare, so
// this reads and writes the database directly.
import type { Sql } from 'postgres';
import { normaliseEmail } from './normalise-email.ts';
import type { Clock } from '../clock.ts';

export interface LoginThrottleOptions {
  sql: Sql;
  clock: Clock;
  /** Default 10. */
  maxFailures?: number;
  /** Default 900 (15 minutes). */
  windowSeconds?: number;
}

export interface LoginThrottleState {
  blocked: boolean;
  /** Seconds until an attempt is allowed again; 0 when not blocked. */
  retryAfterSeconds: number;
}

export interface LoginThrottle {
  check(email: string, address: string): Promise<LoginThrottleState>;
  recordFailure(email: string, address: string): Promise<void>;
}

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { sql, clock } = options;
  const maxFailures = options.maxFailures ?? 10;
  const windowMs = (options.windowSeconds ?? 900) * 1000;

  return {
    async check(email, address) {
      const now = clock.now().getTime();
      // The maxFailures most recent failures in the window; the block lasts while all of them
      // are inside it, that is until the oldest of these leaves it.
      const rows = await sql<{ failed_at: Date }[]>`
        select failed_at from login_failures
        where lower(email) = lower(${normaliseEmail(email)}) and address = ${address}
          and failed_at > ${new Date(now - windowMs)} and failed_at <= ${new Date(now)}
        order by failed_at desc
        limit ${maxFailures}`;
      if (rows.length < maxFailures) return { blocked: false, retryAfterSeconds: 0 };
      const leavesAt = new Date(rows[rows.length - 1].failed_at).getTime() + windowMs;
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((leavesAt - now) / 1000)) };
    },
    async recordFailure(email, address) {
      const now = clock.now().getTime();
      const normalised = normaliseEmail(email);
      await sql`insert into login_failures (email, address, failed_at) values (${normalised}, ${address}, ${new Date(now)})`;
      // Keeps the table small without a sweeper: old rows for this pair go when it fails again.
      await sql`
        delete from login_failures
        where lower(email) = lower(${normalised}) and address = ${address} and failed_at <= ${new Date(now - windowMs)}`;
    },
  };
}
