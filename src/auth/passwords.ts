// Password hashing with argon2id: length policy, hashing, verification, rehash detection and a
// dummy verification that keeps unknown-email logins as slow as wrong-password ones.
import { hash, parseOptions, verify } from '@node-rs/argon2';
import { ApiError } from '../errors.ts';

export interface Argon2Params {
  /** KiB of memory per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  outputLen: number;
}

/** OWASP Password Storage Cheat Sheet, argon2id first option: m = 19 MiB, t = 2, p = 1. */
export const owaspArgon2Params: Argon2Params = {
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

export const minPasswordLength = 8;
export const maxPasswordLength = 1024;

// Values of @node-rs/argon2's const enums, spelled out because tsx compiles files in isolation
// and cannot inline an ambient const enum.
const argon2id = 2;
const version0x13 = 1;

/**
 * Length is counted in Unicode code points (what a person sees as characters, so an emoji counts
 * once), not UTF-16 units or bytes. A string longer than 2 × max UTF-16 units is rejected before
 * it is even iterated, so the check itself is bounded work.
 */
export function passwordLength(password: string): number {
  if (password.length > maxPasswordLength * 2) return password.length;
  let count = 0;
  for (const _ of password) count += 1;
  return count;
}

/** Throws before any hashing work when the password is outside 8–1024 characters. */
export function checkPasswordLength(password: string): void {
  if (typeof password !== 'string') {
    throw new ApiError('validation_failed', 'The password must be a string.', {
      errors: [{ field: 'password', code: 'invalid_type', message: 'must be a string' }],
    });
  }
  const length = passwordLength(password);
  if (length > maxPasswordLength) {
    throw new ApiError('password_too_long', `The password must be at most ${maxPasswordLength} characters.`, {
      errors: [{ field: 'password', code: 'too_long', message: `must be at most ${maxPasswordLength} characters` }],
    });
  }
  if (length < minPasswordLength) {
    throw new ApiError('validation_failed', `The password must be at least ${minPasswordLength} characters.`, {
      errors: [{ field: 'password', code: 'too_short', message: `must be at least ${minPasswordLength} characters` }],
    });
  }
}

export interface PasswordHasher {
  readonly params: Argon2Params;
  /** Throws synchronously (no hashing started) when the length is out of bounds. */
  hashPassword(password: string): Promise<string>;
  /**
   * Throws synchronously when the password is too long (bounded work); a too-short password is
   * simply checked, since the minimum is a rule for new passwords, not for existing ones.
   */
  verifyPassword(storedHash: string, password: string): Promise<boolean>;
  /** True when the stored hash was made with other parameters than the current ones. */
  needsRehash(storedHash: string): boolean;
  /** Spends one real verification against a dummy hash and resolves false. */
  verifyAgainstDummy(password: string): Promise<false>;
}

export function createPasswordHasher(options: { params?: Argon2Params } = {}): PasswordHasher {
  const params = options.params ?? owaspArgon2Params;
  if (params.memoryCost < 8 * params.parallelism || params.timeCost < 1 || params.parallelism < 1) {
    throw new Error('argon2 parameters out of range');
  }
  const hashOptions = { ...params, algorithm: argon2id, version: version0x13 };
  let dummyHash: Promise<string> | undefined;

  // Normalised so that composed and decomposed spellings of the same text (é vs e + ◌́) match.
  const normalise = (password: string) => password.normalize('NFC');

  function rejectTooLong(password: string): void {
    if (typeof password !== 'string' || passwordLength(password) > maxPasswordLength) checkPasswordLength(password);
  }

  return {
    params,
    hashPassword(password) {
      checkPasswordLength(password);
      return hash(normalise(password), hashOptions);
    },
    verifyPassword(storedHash, password) {
      rejectTooLong(password);
      return verify(storedHash, normalise(password)).catch(() => false);
    },
    needsRehash(storedHash) {
      try {
        const stored = parseOptions(storedHash);
        return (
          stored.algorithm !== argon2id ||
          stored.version !== version0x13 ||
          stored.memoryCost !== params.memoryCost ||
          stored.timeCost !== params.timeCost ||
          stored.parallelism !== params.parallelism ||
          stored.outputLen !== params.outputLen
        );
      } catch {
        return true;
      }
    },
    verifyAgainstDummy(password) {
      rejectTooLong(password);
      dummyHash ??= hash('dummy password for timing equalisation', hashOptions);
      return verifyDummy(dummyHash, normalise(password));
    },
  };
}

async function verifyDummy(dummyHash: Promise<string>, password: string): Promise<false> {
  await verify(await dummyHash, password).catch(() => false);
  return false;
}
