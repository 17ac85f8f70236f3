// Correctly signed tokens that must still be refused: received claims and headers are not trusted
// (RFC 8725 §3.10), so lifetime, clock, header and JSON shape are checked after the signature.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createJwtService } from '../../src/auth/jwt.ts';
import { fixedClock } from './seed.ts';

const secret = new Uint8Array(randomBytes(32));
const issuer = 'https://api.service.example';
const audience = 'service-api';
const ttlSeconds = 900;
const clock = fixedClock();
const now = Math.floor(clock.now().getTime() / 1000);
const jwt = createJwtService({ keys: [{ kid: 'k1', secret }], activeKid: 'k1', issuer, audience, ttlSeconds, clock });

const header = { alg: 'HS256', typ: 'at+jwt', kid: 'k1' };
const claims = { iss: issuer, aud: audience, sub: 'usr_1', wid: 'ws_1', jti: 'j1', iat: now, exp: now + ttlSeconds };

const encode = (text: string) => Buffer.from(text).toString('base64url');
/** Signs the exact header and payload text given, so odd JSON reaches the verifier byte for byte. */
function signText(headerText: string, payloadText: string, key: Uint8Array = secret): string {
  const input = `${encode(headerText)}.${encode(payloadText)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
const sign = (h: object, p: object) => signText(JSON.stringify(h), JSON.stringify(p));

describe('JwtService.verify on signed but untrustworthy tokens', () => {
  it('accepts the hand-signed baseline token', async () => {
    expect(await jwt.verify(sign(header, claims))).toMatchObject({ userId: 'usr_1', workspaceId: 'ws_1', jti: 'j1' });
  });

  it('rejects a token issued in the future beyond the clock skew', async () => {
    const iat = now + 3600;
    expect(await jwt.verify(sign(header, { ...claims, iat, exp: iat + ttlSeconds }))).toBeNull();
  });

  it('accepts a token issued a few seconds ahead, as by an instance whose clock runs fast', async () => {
    const iat = now + 5;
    expect(await jwt.verify(sign(header, { ...claims, iat, exp: iat + ttlSeconds }))).not.toBeNull();
  });

  it('rejects a token whose lifetime exceeds the configured TTL', async () => {
    expect(await jwt.verify(sign(header, { ...claims, exp: now + 10 * 365 * 86_400 }))).toBeNull();
    expect(await jwt.verify(sign(header, { ...claims, exp: now + ttlSeconds + 1 }))).toBeNull();
  });

  it('rejects a token signed by an instance with a longer TTL once the TTL is lowered', async () => {
    const longLived = createJwtService({
      keys: [{ kid: 'k1', secret }],
      activeKid: 'k1',
      issuer,
      audience,
      ttlSeconds: 86_400,
      clock,
    });
    const { access_token } = await longLived.sign({ userId: 'usr_1', workspaceId: 'ws_1' });
    expect(await longLived.verify(access_token)).not.toBeNull();
    expect(await jwt.verify(access_token)).toBeNull();
  });

  it('rejects a token that expires before it was issued', async () => {
    expect(await jwt.verify(sign(header, { ...claims, iat: now + 10, exp: now + 5 }))).toBeNull();
  });

  it('rejects a token not yet valid (nbf beyond the skew)', async () => {
    expect(await jwt.verify(sign(header, { ...claims, nbf: now + 600 }))).toBeNull();
    expect(await jwt.verify(sign(header, { ...claims, nbf: now }))).not.toBeNull();
  });

  it('rejects a header without typ, with another alg spelling, or with crit', async () => {
    const { typ: _typ, ...untyped } = header;
    expect(await jwt.verify(sign(untyped, claims))).toBeNull();
    expect(await jwt.verify(sign({ ...header, alg: 'hs256' }, claims))).toBeNull();
    expect(await jwt.verify(sign({ ...header, crit: ['exp'] }, claims))).toBeNull();
    expect(await jwt.verify(sign({ ...header, b64: false, crit: ['b64'] }, claims))).toBeNull();
    expect(await jwt.verify(sign({ ...header, kid: 7 }, claims))).toBeNull();
  });

  it('rejects duplicate member names in the header or the payload', async () => {
    const payload = JSON.stringify(claims);
    const headerText = JSON.stringify(header);
    expect(await jwt.verify(signText(headerText.replace('{', '{"kid":"k9",'), payload))).toBeNull();
    expect(await jwt.verify(signText(headerText, payload.replace('{', '{"wid":"ws_other",')))).toBeNull();
    expect(await jwt.verify(signText(headerText, payload.replace('}', ',"wid":"ws_other"}')))).toBeNull();
  });

  it('rejects JSON that is not an object or is not written the way the signer writes it', async () => {
    const headerText = JSON.stringify(header);
    for (const payload of [
      'null',
      '[]',
      '"x"',
      '7',
      `${JSON.stringify(claims)} `,
      JSON.stringify(claims, null, 1),
      'not json',
    ]) {
      expect(await jwt.verify(signText(headerText, payload))).toBeNull();
    }
    expect(await jwt.verify(signText('[]', JSON.stringify(claims)))).toBeNull();
  });

  it('rejects claims of the wrong type', async () => {
    const cases: Record<string, unknown>[] = [
      { sub: 1 },
      { wid: null },
      { jti: ['j1'] },
      { sub: '' },
      { iss: [issuer] },
      { aud: 5 },
      { aud: [] },
      { iat: String(now) },
      { exp: String(now + 60) },
      { exp: Number.MAX_VALUE },
      { nbf: 'now' },
    ];
    for (const change of cases)
      expect(await jwt.verify(sign(header, { ...claims, ...change })), JSON.stringify(change)).toBeNull();
  });

  it('accepts an audience list that names this service', async () => {
    expect(await jwt.verify(sign(header, { ...claims, aud: ['other-api', audience] }))).not.toBeNull();
    expect(await jwt.verify(sign(header, { ...claims, aud: ['other-api'] }))).toBeNull();
  });

  it('rejects a missing required claim', async () => {
    for (const name of ['iss', 'aud', 'sub', 'jti', 'iat', 'exp'] as const) {
      const { [name]: _dropped, ...rest } = claims;
      expect(await jwt.verify(sign(header, rest)), name).toBeNull();
    }
  });

  it('reads a token without wid as an account login (no workspace), and never an empty wid as one', async () => {
    const { wid: _dropped, ...account } = claims;
    expect(await jwt.verify(sign(header, account))).toEqual({ userId: 'usr_1', workspaceId: null, jti: 'j1' });
    expect(await jwt.verify(sign(header, { ...claims, wid: '' }))).toBeNull();
  });

  it('rejects a signature whose base64url text is not canonical or holds other characters', async () => {
    const token = sign(header, claims);
    const [h, p, s] = token.split('.');
    // The last of 43 characters carries 2 unused bits (always 0 from an encoder): setting one
    // leaves the decoded bytes alone, so only a strict verifier notices.
    const last = s.slice(0, -1) + String.fromCharCode(s.charCodeAt(42) + 1);
    expect(Buffer.from(last, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
    expect(await jwt.verify(`${h}.${p}.${last}`)).toBeNull();
    expect(await jwt.verify(`${h}.${p}.${s}=`)).toBeNull();
    expect(await jwt.verify(`${h}.${p}.${s}.`)).toBeNull();
    expect(await jwt.verify(`${h} .${p}.${s}`)).toBeNull();
  });

  it('rejects a token signed with a key of the same kid but another secret', async () => {
    const other = new Uint8Array(randomBytes(32));
    expect(await jwt.verify(signText(JSON.stringify(header), JSON.stringify(claims), other))).toBeNull();
  });
});
