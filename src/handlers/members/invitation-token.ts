// One-time invitation tokens: random, shown once, stored only as a peppered HMAC.
import { createHmac, randomBytes } from 'node:crypto';

export const INVITATION_TTL_MS = 72 * 3600 * 1000;

export function newInvitationToken(): string {
  return `inv_${randomBytes(24).toString('base64url')}`;
}

export function hashInvitationToken(token: string, pepper: Uint8Array): string {
  return createHmac('sha256', pepper).update(`invitation:${token}`).digest('hex');
}
