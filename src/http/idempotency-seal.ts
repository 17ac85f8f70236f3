// Encrypts stored idempotent responses (AES-256-GCM, src/auth/sealer.ts). A replayed response may hold a
// secret shown once, such as a minted API key, and is kept for 24 h: with the bodies sealed, a copy of the
// database alone does not give those secrets away. The record's scope and key are the associated data.
import { createSealer, type Sealer } from '../auth/sealer.ts';

export type ResponseSeal = Sealer;

export function responseSeal(secret: Uint8Array): ResponseSeal {
  return createSealer(secret, 'service-mcp idempotent response v1');
}
