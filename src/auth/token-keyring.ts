// Seals provider tokens and PKCE verifiers with a key that is not in the database; implemented by
// src/handlers/connectors/token-keys.ts, held by Deps.

export interface TokenKeyring {
  /** The key id new values are sealed with. */
  activeKeyId: string;
  seal(aad: string, plain: string): { sealed: Uint8Array; keyId: string };
  /** Throws when the key id is unknown, the value was altered, or it was sealed for other associated data. */
  open(aad: string, sealed: Uint8Array, keyId: string): string;
}
