import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import {
  checkPasswordLength,
  createPasswordHasher,
  owaspArgon2Params,
  passwordLength,
} from '../../src/auth/passwords.ts';

const hasher = createPasswordHasher({ params: owaspArgon2Params });

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
  return undefined;
}

describe('checkPasswordLength', () => {
  it.each([
    ['7 characters', 'a'.repeat(7), 'validation_failed'],
    ['8 characters', 'a'.repeat(8), undefined],
    ['1024 characters', 'a'.repeat(1024), undefined],
    ['1025 characters', 'a'.repeat(1025), 'password_too_long'],
    ['1024 emoji (2048 UTF-16 units)', '😀'.repeat(1024), undefined],
    ['1025 emoji', '😀'.repeat(1025), 'password_too_long'],
    ['a megabyte', 'a'.repeat(1_000_000), 'password_too_long'],
  ])('judges %s', (_name, password, want) => {
    expect(errorCode(() => checkPasswordLength(password))).toBe(want);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(passwordLength('😀é')).toBe(2);
  });
});

describe('hashPassword', () => {
  it('throws password_too_long synchronously, before any hashing starts', () => {
    // A synchronous throw means no promise, hence no argon2 work, was ever created.
    expect(errorCode(() => hasher.hashPassword('a'.repeat(1025)))).toBe('password_too_long');
    expect(errorCode(() => hasher.hashPassword('short'))).toBe('validation_failed');
  });

  it('produces an argon2id hash with the OWASP parameters that verifies', async () => {
    const stored = await hasher.hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await hasher.verifyPassword(stored, 'correct horse battery!')).toBe(false);
  });

  it('matches composed and decomposed spellings of the same password', async () => {
    const stored = await hasher.hashPassword('caf\u00e9 au lait');
    expect(await hasher.verifyPassword(stored, 'cafe\u0301 au lait')).toBe(true);
  });
});

describe('verifyPassword', () => {
  it('refuses an over-long password synchronously', () => {
    expect(errorCode(() => hasher.verifyPassword('$argon2id$x', 'a'.repeat(1025)))).toBe('password_too_long');
  });

  it('answers false for a malformed stored hash', async () => {
    expect(await hasher.verifyPassword('not-a-hash', 'whatever1')).toBe(false);
  });
});

describe('needsRehash', () => {
  it('is false for a hash made with the current parameters', async () => {
    expect(hasher.needsRehash(await hasher.hashPassword('password123'))).toBe(false);
  });

  it('is true for a hash made with other parameters', async () => {
    const weaker = createPasswordHasher({ params: { ...owaspArgon2Params, memoryCost: 4096, timeCost: 1 } });
    const stored = await weaker.hashPassword('password123');
    expect(hasher.needsRehash(stored)).toBe(true);
    expect(await hasher.verifyPassword(stored, 'password123')).toBe(true);
  });

  it('is true for something that is not an argon2 hash', () => {
    expect(hasher.needsRehash('$2b$10$abcdefghijklmnopqrstuv')).toBe(true);
  });
});

describe('verifyAgainstDummy', () => {
  it('always answers false', async () => {
    expect(await hasher.verifyAgainstDummy('dummy password for timing equalisation')).toBe(false);
    expect(await hasher.verifyAgainstDummy('anything else')).toBe(false);
  });

  it('refuses an over-long password like a real verification', () => {
    expect(errorCode(() => hasher.verifyAgainstDummy('a'.repeat(1025)))).toBe('password_too_long');
  });
});
