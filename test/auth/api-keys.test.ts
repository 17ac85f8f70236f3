import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyChecksum, hashSecret, mintApiKey, parseApiKey, verifySecret } from '../../src/auth/api-keys.ts';

const pepper = new Uint8Array(randomBytes(32));
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('mintApiKey', () => {
  it('produces svc_<8 lowercase>_<base62> keys', () => {
    for (let i = 0; i < 50; i += 1) {
      const { key, prefix } = mintApiKey(pepper);
      expect(key).toMatch(/^svc_[a-z0-9]{8}_[A-Za-z0-9]+$/);
      expect(key.startsWith(`svc_${prefix}_`)).toBe(true);
      expect(key.length).toBe('svc_'.length + 8 + 1 + 22 + 6);
    }
  });

  it('never repeats a key or a prefix in a sample', () => {
    const keys = Array.from({ length: 1000 }, () => mintApiKey(pepper));
    expect(new Set(keys.map((k) => k.key)).size).toBe(1000);
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(1000);
  });

  it('stores a peppered hash, not the secret', () => {
    const { key, prefix, secretHash } = mintApiKey(pepper);
    const parsed = parseApiKey(key)!;
    expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(secretHash).not.toContain(parsed.secret);
    expect(secretHash).toBe(hashSecret(parsed.secret, pepper));
    expect(secretHash).not.toBe(hashSecret(parsed.secret, new Uint8Array(randomBytes(32))));
    expect(parsed.prefix).toBe(prefix);
  });
});

describe('parseApiKey', () => {
  it('accepts a freshly minted key', () => {
    const { key } = mintApiKey(pepper);
    expect(parseApiKey(key)).not.toBeNull();
  });

  it('rejects every one-character typo of a key', () => {
    const { key } = mintApiKey(pepper);
    let tried = 0;
    for (let i = 'svc_'.length; i < key.length; i += 1) {
      if (key[i] === '_') continue;
      for (const replacement of base62) {
        if (replacement === key[i]) continue;
        tried += 1;
        expect(parseApiKey(key.slice(0, i) + replacement + key.slice(i + 1))).toBeNull();
      }
    }
    expect(tried).toBeGreaterThan(30 * 60);
  });

  it('rejects a swap of two neighbouring characters', () => {
    const { key } = mintApiKey(pepper);
    for (let i = 'svc_'.length + 9; i < key.length - 1; i += 1) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      expect(parseApiKey(swapped)).toBeNull();
    }
  });

  it.each([
    ['empty', ''],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'],
    ['wrong scheme prefix', 'sk_abcdefgh_0123456789012345678901234567'],
    ['upper-case prefix part', 'svc_ABCDEFGH_0123456789012345678901234567'],
    ['short prefix', 'svc_abcdefg_0123456789012345678901234567'],
    ['short secret', 'svc_abcdefgh_0123456789'],
    ['non-base62 secret', 'svc_abcdefgh_012345678901234567890123456-'],
    ['trailing space', 'svc_abcdefgh_0123456789012345678901234567 '],
  ])('rejects %s', (_name, text) => {
    expect(parseApiKey(text)).toBeNull();
  });

  it('rejects a well-formed key with a wrong checksum', () => {
    const body = 'svc_abcdefgh_' + 'A'.repeat(22);
    const good = body + apiKeyChecksum(body);
    expect(parseApiKey(good)).not.toBeNull();
    expect(parseApiKey(body + '000000')).toBeNull();
  });
});

describe('verifySecret', () => {
  it('accepts the right secret and rejects others', () => {
    const { key, secretHash } = mintApiKey(pepper);
    const { secret } = parseApiKey(key)!;
    expect(verifySecret(secret, secretHash, pepper)).toBe(true);
    expect(verifySecret(parseApiKey(mintApiKey(pepper).key)!.secret, secretHash, pepper)).toBe(false);
    expect(verifySecret(secret, secretHash, new Uint8Array(randomBytes(32)))).toBe(false);
    expect(verifySecret(secret, 'abc', pepper)).toBe(false);
  });
});
