// Prefixed, time-sortable random ids (`usr_` + 26 lowercase Crockford base32 characters, ULID layout).
import { randomBytes } from 'node:crypto';
import type { Clock, Ids } from './deps.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let value = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

function encodeRandom(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i] % 32];
  return out;
}

export function createIds(clock: Clock): Ids {
  return { make: (prefix) => `${prefix}_${encodeTime(clock.now().getTime())}${encodeRandom()}` };
}
