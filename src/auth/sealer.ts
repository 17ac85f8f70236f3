// AES-256-GCM for secrets the service must read back (webhook signing secrets, provider tokens,
// sealed idempotent responses). Each use derives its own key from the server secret under its own
// label, so no new secret is stored and one use's ciphertext never opens under another's; the
// record's id is bound in as associated data, so a sealed value moved to another record does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealer {
  seal(recordId: string, plain: Uint8Array | string): Uint8Array;
  /** Throws when the value was sealed under another secret or label, for another record, or altered. */
  open(recordId: string, sealed: Uint8Array): Uint8Array;
}

export function createSealer(secret: Uint8Array, label: string): Sealer {
  if (secret.length < 32) throw new Error('createSealer: the secret must have at least 32 bytes');
  const key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), label, 32));
  return {
    seal(recordId, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(recordId));
      const body = Buffer.concat([
        cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain),
        cipher.final(),
      ]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(recordId, sealed) {
      const bytes = Buffer.from(sealed);
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(recordId));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
