// Synchronous, strict verification of the access tokens jwt.ts signs. jose's HS256 verify goes
// through WebCrypto (asynchronous, hundreds of µs under load); one node:crypto HMAC plus two small
// JSON parses costs a few µs, which keeps JWT requests as cheap as API-key ones.
// Strict because this service only verifies tokens it issued: anything its signer would not have
// written (other header parameters, duplicate or reformatted JSON, non-canonical base64url, a
// lifetime longer than the TTL) is refused, and no received claim is trusted (RFC 8725 §3.10).
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface VerifyPolicy {
  keys: ReadonlyMap<string, KeyObject>;
  issuer: string;
  audience: string;
  /** The longest lifetime (exp − iat) a token may claim: the TTL this service signs with. */
  ttlSeconds: number;
  /** How far ahead of this instance's clock another instance's iat or nbf may be. */
  clockSkewSeconds: number;
}

export interface AccessClaims {
  sub: string;
  /** Absent on an account login: a person who belongs to no workspace (see jwt.ts). */
  wid: string | null;
  jti: string;
}

type Json = Record<string, unknown>;

const algorithm = 'HS256';
export const accessTokenType = 'at+jwt';
// The exact header jwt.ts writes. `crit`, `b64`, `jku`, `x5u`... are refused by not being listed.
const headerSize = 3;
// HMAC-SHA256 gives 32 bytes: 43 base64url characters.
const signatureLength = 43;
// Ours are about 400 characters; a bound keeps hostile input from costing anything.
const maxTokenLength = 4096;
const base64url = /^[A-Za-z0-9_-]+$/;

export function verifyAccessToken(token: string, policy: VerifyPolicy, nowSeconds: number): AccessClaims | null {
  if (typeof token !== 'string' || token.length > maxTokenLength) return null;
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  if (firstDot <= 0 || secondDot <= firstDot + 1 || token.indexOf('.', secondDot + 1) !== -1) return null;
  const signature = token.slice(secondDot + 1);
  if (signature.length !== signatureLength || !base64url.test(signature)) return null;

  const header = parsePart(token.slice(0, firstDot));
  if (!header || Object.keys(header).length !== headerSize) return null;
  if (header.alg !== algorithm || header.typ !== accessTokenType || typeof header.kid !== 'string') return null;
  const key = policy.keys.get(header.kid);
  if (!key) return null;

  // Comparing the encoded text (not decoded bytes) also refuses non-canonical trailing bits.
  const expected = createHmac('sha256', key).update(token.slice(0, secondDot)).digest('base64url');
  if (!timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature, 'latin1'))) return null;

  const payload = parsePart(token.slice(firstDot + 1, secondDot));
  return payload && checkClaims(payload, policy, nowSeconds);
}

/** A base64url JSON object exactly as JSON.stringify writes it (no duplicates, spaces or escapes), or null. */
function parsePart(part: string): Json | null {
  if (!base64url.test(part)) return null;
  const text = Buffer.from(part, 'base64url').toString('utf8');
  // Round trips catch non-canonical base64url, invalid UTF-8, duplicate members and reformatted JSON.
  if (Buffer.from(text, 'utf8').toString('base64url') !== part) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return JSON.stringify(value) === text ? (value as Json) : null;
}

function checkClaims(payload: Json, policy: VerifyPolicy, now: number): AccessClaims | null {
  const { iss, aud, sub, wid, jti, iat, exp, nbf } = payload;
  if (iss !== policy.issuer || !audienceMatches(aud, policy.audience)) return null;
  if (!isId(sub) || !isId(jti) || (wid !== undefined && !isId(wid))) return null;
  if (!isTime(iat) || !isTime(exp)) return null;
  // exp has no tolerance: refusing a token a moment early only makes the client sign in again.
  if (exp <= now || iat > now + policy.clockSkewSeconds) return null;
  const lifetime = exp - iat;
  if (lifetime <= 0 || lifetime > policy.ttlSeconds) return null;
  if (nbf !== undefined && (!isTime(nbf) || nbf > now + policy.clockSkewSeconds)) return null;
  return { sub, wid: wid === undefined ? null : wid, jti };
}

function audienceMatches(aud: unknown, audience: string): boolean {
  if (typeof aud === 'string') return aud === audience;
  return Array.isArray(aud) && aud.every((entry) => typeof entry === 'string') && aud.includes(audience);
}

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
