// The signed token of a post's preview link: which workspace and post, until when, plus an HMAC under a key
// derived from the server secret (its own label, so it can never pass for another kind of token). Anyone
// holding the link sees that one post as it is now, published or not, until the link expires; nobody can
// make one for another post. get_blog_post hands out a fresh one each time.
import { createHmac } from 'node:crypto';
import { derivedKey } from '../../auth/derived-key.ts';
import { tagMatches } from '../../auth/signed-tag.ts';

const LABEL = 'service-mcp blog preview link v1';
const MAC_BYTES = 16;
export const PREVIEW_SECONDS = 60 * 60;
const key = (secret: Uint8Array): Buffer => derivedKey(secret, LABEL);
const ID = /^[a-z]+_[0-9a-z]{26}$/;

export interface PreviewTarget {
  workspaceId: string;
  postId: string;
}

const macOf = (secret: Uint8Array, payload: string) =>
  createHmac('sha256', key(secret)).update(payload).digest().subarray(0, MAC_BYTES);

export function signPreview(secret: Uint8Array, target: PreviewTarget, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + PREVIEW_SECONDS;
  const payload = Buffer.from(`${target.workspaceId}.${target.postId}.${expires}`).toString('base64url');
  return `${payload}.${macOf(secret, payload).toString('base64url')}`;
}

/** The post of a token this service signed that has not expired, or undefined for anything else. */
export function verifyPreview(secret: Uint8Array, token: string, now: Date): PreviewTarget | undefined {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return undefined;
  if (!tagMatches(mac, macOf(secret, payload))) return undefined;
  const [workspaceId, postId, expires, more] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  if (more !== undefined || ![workspaceId, postId].every((id) => id && ID.test(id)) || !/^\d+$/.test(expires))
    return undefined;
  if (Number(expires) * 1000 <= now.getTime()) return undefined;
  return { workspaceId, postId };
}
