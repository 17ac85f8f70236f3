import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createJwtService, kidFor, loadOrCreateJwtKey, type JwtServiceOptions } from '../../src/auth/jwt.ts';
import { loadOrCreateSecret } from '../../src/auth/server-secrets.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock } from './seed.ts';

const key1 = { kid: 'k1', secret: new Uint8Array(randomBytes(32)) };
const key2 = { kid: 'k2', secret: new Uint8Array(randomBytes(32)) };
const subject = { userId: 'usr_1', workspaceId: 'ws_1' };

function service(overrides: Partial<JwtServiceOptions> = {}) {
  const clock = fixedClock();
  const options: JwtServiceOptions = {
    keys: [key1],
    activeKid: 'k1',
    issuer: 'https://api.service.example',
    audience: 'service-api',
    ttlSeconds: 900,
    clock,
    ...overrides,
  };
  return { jwt: createJwtService(options), clock: options.clock as typeof clock };
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('JwtService', () => {
  it('signs a login response and verifies its own token', async () => {
    const { jwt } = service();
    const response = await jwt.sign(subject);
    expect(response).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    const verified = await jwt.verify(response.access_token);
    expect(verified).toMatchObject(subject);
    expect(verified?.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts alg, typ at+jwt, kid, iss, aud, sub, wid, jti, iat and exp = iat + ttl in the token', async () => {
    const { jwt, clock } = service();
    const [header, payload] = (await jwt.sign(subject)).access_token.split('.');
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' });
    const now = clock.now().getTime() / 1000;
    expect(decode(payload)).toMatchObject({
      iss: 'https://api.service.example',
      aud: 'service-api',
      sub: 'usr_1',
      wid: 'ws_1',
      iat: now,
      exp: now + 900,
    });
  });

  it('rejects an expired token', async () => {
    const { jwt, clock } = service();
    const { access_token } = await jwt.sign(subject);
    clock.advance(899);
    expect(await jwt.verify(access_token)).not.toBeNull();
    clock.advance(2);
    expect(await jwt.verify(access_token)).toBeNull();
  });

  it('rejects a tampered signature and a tampered payload', async () => {
    const { jwt } = service();
    const [header, payload, signature] = (await jwt.sign(subject)).access_token.split('.');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(await jwt.verify([header, payload, flipped].join('.'))).toBeNull();
    const forged = b64({ ...decode(payload), wid: 'ws_other' });
    expect(await jwt.verify([header, forged, signature].join('.'))).toBeNull();
  });

  it('rejects a hand-built alg none token', async () => {
    const { jwt, clock } = service();
    const now = Math.floor(clock.now().getTime() / 1000);
    const payload = {
      iss: 'https://api.service.example',
      aud: 'service-api',
      sub: 'usr_1',
      wid: 'ws_1',
      jti: 'x',
      iat: now,
      exp: now + 900,
    };
    for (const token of [
      `${b64({ alg: 'none', typ: 'at+jwt', kid: 'k1' })}.${b64(payload)}.`,
      `${b64({ alg: 'none' })}.${b64(payload)}.`,
    ]) {
      expect(await jwt.verify(token)).toBeNull();
    }
  });

  it('rejects a token for another audience or from another issuer', async () => {
    const { jwt } = service();
    const otherAudience = await service({ audience: 'other-api' }).jwt.sign(subject);
    const otherIssuer = await service({ issuer: 'https://evil.example' }).jwt.sign(subject);
    expect(await jwt.verify(otherAudience.access_token)).toBeNull();
    expect(await jwt.verify(otherIssuer.access_token)).toBeNull();
  });

  it('rejects a token whose typ is not at+jwt', async () => {
    const { jwt, clock } = service();
    const token = await new SignJWT({ wid: 'ws_1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'k1' })
      .setIssuer('https://api.service.example')
      .setAudience('service-api')
      .setSubject('usr_1')
      .setJti('j')
      .setIssuedAt(clock.now())
      .setExpirationTime(new Date(clock.now().getTime() + 60_000))
      .sign(key1.secret);
    expect(await jwt.verify(token)).toBeNull();
  });

  it('rejects a token signed with a key id it does not know', async () => {
    const { jwt } = service();
    const foreign = await service({ keys: [key2], activeKid: 'k2' }).jwt.sign(subject);
    expect(await jwt.verify(foreign.access_token)).toBeNull();
  });

  it('keeps verifying tokens of a rotated-out key while it stays in the key list', async () => {
    const old = service({ keys: [key1], activeKid: 'k1' });
    const rotated = service({ keys: [key2, key1], activeKid: 'k2' });
    const oldToken = (await old.jwt.sign(subject)).access_token;
    const newToken = (await rotated.jwt.sign(subject)).access_token;
    expect(decode(newToken.split('.')[0]).kid).toBe('k2');
    expect(await rotated.jwt.verify(oldToken)).toMatchObject(subject);
    expect(await rotated.jwt.verify(newToken)).toMatchObject(subject);
    const retired = service({ keys: [key2], activeKid: 'k2' });
    expect(await retired.jwt.verify(oldToken)).toBeNull();
  });

  it('answers null for garbage instead of throwing', async () => {
    const { jwt } = service();
    for (const token of ['', 'abc', 'a.b.c', '....']) expect(await jwt.verify(token)).toBeNull();
  });

  it('refuses to be built with a short key or an active kid missing from the list', () => {
    expect(() => service({ keys: [{ kid: 'k', secret: new Uint8Array(16) }], activeKid: 'k' })).toThrow(/shorter/);
    expect(() => service({ activeKid: 'nope' })).toThrow(/active kid/);
  });
});

describe('loadOrCreateJwtKey', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it('generates one key, stores it and returns the same one to every later caller', async () => {
    const [a, b] = await Promise.all([loadOrCreateJwtKey(db.sql), loadOrCreateJwtKey(db.sql)]);
    const c = await loadOrCreateJwtKey(db.sql);
    expect(a.secret.length).toBe(32);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.kid).toBe(kidFor(a.secret));
    const rows = await db.sql`select name from server_secrets where name = 'jwt_hs256'`;
    expect(rows).toHaveLength(1);
  });

  it('uses a configured secret with a kid derived from it, without storing it', async () => {
    const configured = randomBytes(48).toString('base64url');
    const key = await loadOrCreateJwtKey(db.sql, configured);
    expect(Buffer.from(key.secret).toString('base64url')).toBe(configured);
    expect(key.kid).toBe(kidFor(key.secret));
    const stored = await loadOrCreateJwtKey(db.sql);
    expect(stored.kid).not.toBe(key.kid);
  });

  it('refuses a configured secret that is too short or not base64url', async () => {
    await expect(loadOrCreateJwtKey(db.sql, randomBytes(16).toString('base64url'))).rejects.toThrow(/at least 32/);
    await expect(loadOrCreateJwtKey(db.sql, 'not base64url!!')).rejects.toThrow(/base64url/);
  });

  it('keeps other secrets, such as the API-key pepper, under their own names', async () => {
    const pepper = await loadOrCreateSecret(db.sql, 'api_key_pepper');
    expect(await loadOrCreateSecret(db.sql, 'api_key_pepper')).toEqual(pepper);
    expect(Buffer.from(pepper).equals(Buffer.from((await loadOrCreateJwtKey(db.sql)).secret))).toBe(false);
  });
});
