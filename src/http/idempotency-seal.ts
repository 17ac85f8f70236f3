// Encrypts stored idempotent responses (AES-256-GCM). A replayed response may hold a secret shown once,
// such as a minted API key, and is kept for 24 h: with the bodies sealed, a copy of the database alone
// does not give those secrets away. The key is derived from the API-key pepper under its own label, so no
// new secret is stored; the record's scope and key are bound in as associated data, so a sealed body
// moved to another record does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const KEY_LABEL = 'service-mcp idempotent response v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface ResponseSeal {
  seal(recordId: string, plain: Uint8Array): Uint8Array;
  /** Throws when the body was sealed under another secret or altered. */
  open(recordId: string, sealed: Uint8Array): Uint8Array;
}

export function responseSeal(secret: Uint8Array): ResponseSeal {
  if (secret.length < 32) throw new Error('responseSeal: the secret must have at least 32 bytes');
  const key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), KEY_LABEL, 32));
  return {
    seal(recordId, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(recordId));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(recordId, sealed) {
      const bytes = Buffer.from(sealed);
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed response is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(recordId));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
