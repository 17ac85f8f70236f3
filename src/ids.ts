// Prefixed, time-sortable random ids (`usr_` + 26 lowercase Crockford base32 characters, ULID layout).
// Imports make one id per lead, so the random bytes are drawn a pool at a time and the time part is
// encoded once per millisecond.
import { randomFillSync } from 'node:crypto';
import type { Ids } from './deps.ts';
import type { Clock } from './clock.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_BYTES = 16;
const POOL_IDS = 256;

function encodeTime(ms: number): string {
  let out = '';
  let value = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

export function createIds(clock: Clock): Ids {
  const pool = Buffer.alloc(RANDOM_BYTES * POOL_IDS);
  let used = pool.length;
  let lastMs = Number.NaN;
  let lastTime = '';
  const encodeRandom = (): string => {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    let out = '';
    for (let end = used + RANDOM_BYTES; used < end; used++) out += ALPHABET[pool[used] % 32];
    return out;
  };
  return {
    make: (prefix) => {
      const ms = clock.now().getTime();
      if (ms !== lastMs) {
        lastMs = ms;
        lastTime = encodeTime(ms);
      }
      return `${prefix}_${lastTime}${encodeRandom()}`;
    },
  };
}
