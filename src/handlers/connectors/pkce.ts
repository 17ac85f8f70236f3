// The random values of one consent flow: the state (sent to the provider and back, stored hashed) and
// the PKCE verifier (kept server-side, sealed) with its S256 challenge.
import { createHash, randomBytes } from 'node:crypto';

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export function newFlowSecrets(): { state: string; stateHash: string; verifier: string; challenge: string } {
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  return { state, stateHash: sha256Hex(state), verifier, challenge: pkceChallenge(verifier) };
}

export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
