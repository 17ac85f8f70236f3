// First-party API keys `svc_<prefix>_<secret><checksum>`: minting, offline format and checksum
// validation, and the peppered HMAC that is the only thing the database keeps.
import { createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** RFC 4648 base32 in lower case: no look-alike pairs such as 0/O, 1/l, and all of [a-z0-9]. */
const prefixAlphabet = 'abcdefghijklmnopqrstuvwxyz234567';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const prefixLength = 8;
/** 22 base62 characters carry log2(62) × 22 ≈ 131 random bits. */
export const secretBodyLength = 22;
/** CRC-32 fits in 6 base62 characters (62^6 ≈ 5.7 × 10^10 > 2^32). */
export const checksumLength = 6;

const keyPattern = new RegExp(
  `^svc_([${prefixAlphabet}]{${prefixLength}})_([0-9A-Za-z]{${secretBodyLength}})([0-9A-Za-z]{${checksumLength}})$`,
);

export interface ParsedApiKey {
  prefix: string;
  /** The part after the prefix (random body and checksum): what is hashed and compared. */
  secret: string;
}

export interface MintedApiKey {
  /** Shown to the admin once, never stored. */
  key: string;
  prefix: string;
  /** HMAC-SHA-256 of the secret under the pepper, hex: the value for `api_keys.secret_hash`. */
  secretHash: string;
}

/** Uniform random characters from `alphabet` by rejection sampling (no modulo bias). */
function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/**
 * CRC-32 rather than a truncated cryptographic hash: the checksum only catches accidents, and
 * CRC-32 detects every error burst up to 32 bits, so every single-character typo and every swap
 * of two neighbouring characters is caught, not merely most of them.
 */
export function apiKeyChecksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < checksumLength; i += 1) {
    out = base62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Validates shape and checksum with no database work; null when the text is not a key. */
export function parseApiKey(text: string): ParsedApiKey | null {
  const match = keyPattern.exec(text);
  if (!match) return null;
  const [, prefix, body, checksum] = match;
  if (apiKeyChecksum(`svc_${prefix}_${body}`) !== checksum) return null;
  return { prefix, secret: body + checksum };
}

export function hashSecret(secret: string, pepper: Uint8Array | KeyObject): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

/** Pass the pepper as a KeyObject made once (createSecretKey) on hot paths: it skips a key import per call. */
export function verifySecret(secret: string, storedHash: string, pepper: Uint8Array | KeyObject): boolean {
  const actual = createHmac('sha256', pepper).update(secret).digest();
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function mintApiKey(pepper: Uint8Array): MintedApiKey {
  const prefix = randomString(prefixAlphabet, prefixLength);
  const body = `svc_${prefix}_${randomString(base62, secretBodyLength)}`;
  const key = body + apiKeyChecksum(body);
  const secret = key.slice(`svc_${prefix}_`.length);
  return { key, prefix, secretHash: hashSecret(secret, pepper) };
}
