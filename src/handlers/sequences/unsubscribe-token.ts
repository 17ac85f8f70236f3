// The signed token of an email's unsubscribe link: which workspace, lead and sequence, plus an HMAC under a
// key derived from the server secret (its own label, so it can never be mistaken for a cursor or key hash).
// Anyone holding the link can unsubscribe that one lead, which is what the link is for; nobody can make
// one for another lead.
import { createHmac } from 'node:crypto';
import { derivedKey } from '../../auth/derived-key.ts';
import { tagMatches } from '../../auth/signed-tag.ts';
import type { Deps } from '../../deps.ts';

const LABEL = 'service-mcp unsubscribe link v1';
const MAC_BYTES = 16;
const key = (secret: Uint8Array): Buffer => derivedKey(secret, LABEL);

export interface UnsubscribeTarget {
  workspaceId: string;
  leadId: string;
  sequenceId: string;
}

const ID = /^[a-z]+_[0-9a-z]{26}$/;

export function signUnsubscribe(secret: Uint8Array, target: UnsubscribeTarget): string {
  const payload = Buffer.from(`${target.workspaceId}.${target.leadId}.${target.sequenceId}`).toString('base64url');
  const mac = createHmac('sha256', key(secret)).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url');
  return `${payload}.${mac}`;
}

/** The target of a token this service signed, or undefined for anything else. */
export function verifyUnsubscribe(secret: Uint8Array, token: string): UnsubscribeTarget | undefined {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return undefined;
  if (!tagMatches(mac, createHmac('sha256', key(secret)).update(payload).digest().subarray(0, MAC_BYTES)))
    return undefined;
  const [workspaceId, leadId, sequenceId, more] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  if (more !== undefined || ![workspaceId, leadId, sequenceId].every((id) => id && ID.test(id))) return undefined;
  return { workspaceId, leadId, sequenceId };
}

/** The public link an email carries (and the List-Unsubscribe header points to). */
export const unsubscribeUrl = (deps: Deps, target: UnsubscribeTarget) =>
  `${deps.config.publicBaseUrl.replace(/\/$/, '')}/unsubscribe/${signUnsubscribe(deps.auth.apiKeyPepper, target)}`;
