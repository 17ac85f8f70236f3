// Access tokens: HS256 JWTs (RFC 9068 `at+jwt`) carrying the user and workspace, with key ids so
// signing keys can rotate while older tokens still verify. jose signs; jwt-verify.ts verifies.
// A token without a workspace (no `wid`) is an account login: its person belongs to no workspace
// (every membership was removed) and can only accept an invitation with it.
import { createHash, createSecretKey, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Sql } from 'postgres';
import type { Clock } from '../clock.ts';
import { accessTokenType, verifyAccessToken, type VerifyPolicy } from './jwt-verify.ts';
import { loadOrCreateSecret, minSecretBytes } from './server-secrets.ts';

export interface JwtKey {
  kid: string;
  secret: Uint8Array;
}

export interface JwtServiceOptions {
  keys: JwtKey[];
  /** The key that signs new tokens; the others only verify. */
  activeKid: string;
  issuer: string;
  audience: string;
  /** Lifetime of signed tokens, and the longest lifetime a verified token may claim. */
  ttlSeconds: number;
  /** How far ahead of this clock another instance's `iat` may be (default 30 s). */
  clockSkewSeconds?: number;
  clock: Clock;
}

export interface LoginResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface VerifiedToken {
  userId: string;
  /** Null for an account login. */
  workspaceId: string | null;
  jti: string;
}

export interface JwtService {
  /** `workspaceId: null` signs an account login. */
  sign(subject: { userId: string; workspaceId: string | null }): Promise<LoginResponse>;
  /** Resolves null for every token that is not valid now; never rejects for a bad token. */
  verify(token: string): Promise<VerifiedToken | null>;
}

const algorithm = 'HS256';
const defaultClockSkewSeconds = 30;

export function createJwtService(options: JwtServiceOptions): JwtService {
  const keys = new Map(options.keys.map((key) => [key.kid, key.secret]));
  checkOptions(options, keys);
  // KeyObjects made once: jose would import a raw secret on every sign, and createHmac takes them as they are.
  const keyObjects = new Map([...keys].map(([kid, secret]) => [kid, createSecretKey(secret)]));
  const activeSecret = keyObjects.get(options.activeKid)!;
  const policy: VerifyPolicy = {
    keys: keyObjects,
    issuer: options.issuer,
    audience: options.audience,
    ttlSeconds: options.ttlSeconds,
    clockSkewSeconds: options.clockSkewSeconds ?? defaultClockSkewSeconds,
  };

  return {
    async sign({ userId, workspaceId }) {
      const now = Math.floor(options.clock.now().getTime() / 1000);
      const token = await new SignJWT(workspaceId === null ? {} : { wid: workspaceId })
        .setProtectedHeader({ alg: algorithm, typ: accessTokenType, kid: options.activeKid })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(userId)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + options.ttlSeconds)
        .sign(activeSecret);
      return { access_token: token, token_type: 'bearer', expires_in: options.ttlSeconds };
    },
    // Synchronous inside (see jwt-verify.ts); the promise keeps the interface the authenticator awaits.
    async verify(token) {
      const claims = verifyAccessToken(token, policy, options.clock.now().getTime() / 1000);
      return claims && { userId: claims.sub, workspaceId: claims.wid, jti: claims.jti };
    },
  };
}

function checkOptions(options: JwtServiceOptions, keys: Map<string, Uint8Array>): void {
  if (keys.size !== options.keys.length) throw new Error('jwt: duplicate kid in the key list');
  if (!keys.has(options.activeKid)) throw new Error(`jwt: active kid ${options.activeKid} is not in the key list`);
  for (const [kid, secret] of keys) {
    if (secret.length < minSecretBytes) throw new Error(`jwt: key ${kid} is shorter than ${minSecretBytes} bytes`);
  }
  if (!Number.isInteger(options.ttlSeconds) || options.ttlSeconds <= 0)
    throw new Error('jwt: ttlSeconds must be a positive integer');
  if (!options.issuer || !options.audience) throw new Error('jwt: issuer and audience are required');
  const skew = options.clockSkewSeconds;
  if (skew !== undefined && (!Number.isInteger(skew) || skew < 0))
    throw new Error('jwt: clockSkewSeconds must be a non-negative integer');
}

/** A stable, non-secret key id: the first 16 base64url characters of SHA-256 of the secret. */
export function kidFor(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 16);
}

/** The signing key from configuration (base64url, ≥ 32 bytes), or the one kept in the database. */
export async function loadOrCreateJwtKey(sql: Sql, configuredSecret?: string): Promise<JwtKey> {
  const secret = await loadOrCreateSecret(sql, 'jwt_hs256', configuredSecret);
  return { kid: kidFor(secret), secret };
}
