// The keys that seal provider tokens and PKCE verifiers (AES-256-GCM). They never live in the database
// they protect: TOKEN_ENCRYPTION_KEY gives them (`<key id>:<base64 of 32 bytes>`, comma-separated, the
// first one sealing new values and every one opening old ones, so a key can be rotated), or, when it
// is not set, one key is generated once into `<DATA_DIR>/token-encryption.key`, readable only by the
// owner. Every sealed value names its key id; associated data binds it to its workspace and record.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TokenKeyring } from '../../auth/token-keyring.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export function parseTokenKeys(raw: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf(':');
    const [id, value] = at > 0 ? [part.slice(0, at), part.slice(at + 1)] : ['k1', part];
    if (!KEY_ID.test(id)) throw new Error(`TOKEN_ENCRYPTION_KEY: the key id "${id}" must match ${KEY_ID}`);
    const key = Buffer.from(value, 'base64');
    if (key.length !== 32)
      throw new Error(`TOKEN_ENCRYPTION_KEY: key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
    if (keys.has(id)) throw new Error(`TOKEN_ENCRYPTION_KEY: key id "${id}" appears twice`);
    keys.set(id, key);
  }
  if (keys.size === 0) throw new Error('TOKEN_ENCRYPTION_KEY is empty');
  return keys;
}

/** The configured keys, or the key file in the data folder (created once, mode 0600). */
export function loadTokenKeys(options: { configured?: string; dataDir: string }): Map<string, Buffer> {
  if (options.configured) return parseTokenKeys(options.configured);
  const file = join(options.dataDir, 'token-encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // `wx`: never overwrite a key another process wrote a moment ago.
    try {
      writeFileSync(file, `k1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return parseTokenKeys(readFileSync(file, 'utf8'));
}

export function createTokenKeyring(keys: Map<string, Buffer>): TokenKeyring {
  const [activeKeyId] = keys.keys();
  const keyOf = (id: string) => {
    const key = keys.get(id);
    if (!key) throw new Error(`no token encryption key "${id}" is configured`);
    return key;
  };
  return {
    activeKeyId,
    seal(aad, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyOf(activeKeyId), iv);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { sealed: Buffer.concat([iv, cipher.getAuthTag(), body]), keyId: activeKeyId };
    },
    open(aad, sealed, keyId) {
      const bytes = Buffer.from(sealed);
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed token is truncated');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(keyId), bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
