// The signed tokens of a tracked message's pixel (`o`) and rewritten links (`c`, with the link's index): which
// workspace and message, plus an HMAC under a key derived from the server secret with a label of its own (so a
// tracking token can never pass as an unsubscribe link, a cursor or a key hash). The MAC is checked before the
// payload is even decoded, so a forged or altered token costs no database read and writes nothing.
import { createHmac } from 'node:crypto';
import { derivedKey } from '../../auth/derived-key.ts';
import { tagMatches } from '../../auth/signed-tag.ts';
import type { Deps } from '../../deps.ts';

const LABEL = 'service-mcp tracking link v1';
const MAC_BYTES = 16;
const key = (secret: Uint8Array): Buffer => derivedKey(secret, LABEL);
const ID = /^[a-z]+_[0-9a-z]{26}$/;
/** A message never carries more links than this; an index beyond it is not one we signed. */
export const MAX_TRACKED_LINKS = 200;

export type TrackingTarget =
  | { kind: 'open'; workspaceId: string; messageId: string }
  | { kind: 'click'; workspaceId: string; messageId: string; link: number };

const mac = (secret: Uint8Array, payload: string) =>
  createHmac('sha256', key(secret)).update(payload).digest().subarray(0, MAC_BYTES);

export function signTracking(secret: Uint8Array, target: TrackingTarget): string {
  const parts = [target.kind === 'open' ? 'o' : 'c', target.workspaceId, target.messageId];
  if (target.kind === 'click') parts.push(String(target.link));
  const payload = Buffer.from(parts.join('.')).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The target of a token this service signed for `kind`, or undefined for anything else. */
export function verifyTracking(
  secret: Uint8Array,
  kind: TrackingTarget['kind'],
  token: string,
): TrackingTarget | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  if (!tagMatches(signature, mac(secret, payload))) return undefined;
  const [k, workspaceId, messageId, link, more] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  if (more !== undefined || !ID.test(workspaceId ?? '') || !ID.test(messageId ?? '')) return undefined;
  if (kind === 'open') return k === 'o' && link === undefined ? { kind, workspaceId, messageId } : undefined;
  if (k !== 'c' || !/^(0|[1-9][0-9]{0,2})$/.test(link ?? '') || Number(link) >= MAX_TRACKED_LINKS) return undefined;
  return { kind, workspaceId, messageId, link: Number(link) };
}

const base = (deps: Deps) => deps.config.publicBaseUrl.replace(/\/$/, '');

/** The pixel's and a link's public URLs on the service's host (the paths of track_open and track_click). */
export const trackingUrl = (deps: Deps, target: TrackingTarget) =>
  `${base(deps)}/t/${target.kind === 'open' ? 'o' : 'c'}/${signTracking(deps.auth.apiKeyPepper, target)}`;
