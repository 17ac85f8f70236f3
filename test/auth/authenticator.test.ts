import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { apiKeyChecksum } from '../../src/auth/api-keys.ts';
import { createAuthenticator, type Authenticator } from '../../src/auth/authenticator.ts';
import { bearerCredentials } from '../../src/auth/bearer-credentials.ts';
import { invalidateApiKey, invalidateMembership } from '../../src/auth/invalidation.ts';
import { createJwtService, type JwtService } from '../../src/auth/jwt.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock, seedApiKey, seedMember, testPepper } from './seed.ts';

const clock = fixedClock();
const jwtKey = { kid: 'k1', secret: new Uint8Array(randomBytes(32)) };
const jwtOptions = { keys: [jwtKey], activeKid: 'k1', issuer: 'iss', audience: 'aud', ttlSeconds: 900, clock };

let db: Database;
let jwt: JwtService;
let auth: Authenticator;

beforeAll(async () => {
  db = await createTestDatabase();
  jwt = createJwtService(jwtOptions);
  // The embedded database serves one instance and PGlite does not deliver notifications. A long
  // heartbeat keeps a slow test machine from flapping into the no-cache mode mid-test.
  const invalidation = db.kind === 'pglite' ? 'local' : 'notify';
  auth = createAuthenticator({ sql: db.sql, jwt, pepper: testPepper, clock, invalidation, heartbeatMs: 60_000 });
  expect(await auth.ready()).toBe(true);
});
afterAll(async () => {
  await auth.close();
  await db.close();
});

async function tokenFor(member: { userId: string; workspaceId: string }) {
  return (await jwt.sign(member)).access_token;
}

describe('bearerCredentials', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['Basic dXNlcjpwYXNz', []],
    ['Bearer', []],
    ['Bearer abc', ['abc']],
    ['bearer abc', ['abc']],
    ['Bearer a, Bearer b', ['a', 'b']],
    ['Bearer a Bearer b', ['a', 'b']],
    ['Bearer a,Bearer b', ['a', 'b']],
    ['Basic x, Bearer b', ['b']],
    ['Bearer Bearer b', ['b']],
    ['Bearer a"b', []],
    ['Bearer 1, Bearer 2, Bearer 3, Bearer 4, Bearer 5', ['1', '2', '3', '4']],
  ])('reads %j as %j', (header, want) => {
    expect(bearerCredentials(header)).toEqual(want);
  });
});

describe('authenticate', () => {
  it('resolves an API key to a principal of its workspace acting with its own role', async () => {
    const owner = await seedMember(db.sql, 'owner');
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await auth.authenticate(`Bearer ${key}`)).toEqual({
      kind: 'api_key',
      userId: owner.userId,
      workspaceId: owner.workspaceId,
      role: 'admin',
      scopes: ['*'],
      credentialId: keyId,
    });
  });

  it('lowers an API key to the role its creator has now, and refuses it once the creator left', async () => {
    const member = await seedMember(db.sql, 'member');
    const { key } = await seedApiKey(db.sql, member);
    expect(await auth.authenticate(`Bearer ${key}`)).toMatchObject({ role: 'member' });
    await db.sql`delete from memberships where user_id = ${member.userId}`;
    await auth.settle({
      target: { type: 'membership', workspaceId: member.workspaceId, userId: member.userId },
      nonce: '',
    });
    expect(await auth.authenticate(`Bearer ${key}`)).toBeNull();
  });

  it('resolves a JWT to its user with the role of the membership', async () => {
    const member = await seedMember(db.sql, 'member');
    const principal = await auth.authenticate(`Bearer ${await tokenFor(member)}`);
    expect(principal).toMatchObject({ kind: 'jwt', ...member, role: 'member', scopes: ['*'] });
    expect(principal?.credentialId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('returns null without a usable credential', async () => {
    for (const header of [undefined, '', 'Basic abc', 'Bearer', 'Bearer nonsense', 'Bearer svc_abcdefgh_0000']) {
      expect(await auth.authenticate(header)).toBeNull();
    }
  });

  it('rejects a key with the right prefix but a wrong secret, cached or not', async () => {
    const owner = await seedMember(db.sql);
    const { key } = await seedApiKey(db.sql, owner);
    // Same prefix, another secret, a correct checksum: passes parsing, fails the HMAC.
    const body = key.slice(0, 'svc_12345678_'.length) + 'B'.repeat(22);
    const forged = body + apiKeyChecksum(body);
    expect(await auth.authenticate(`Bearer ${forged}`)).toBeNull();
    expect(await auth.authenticate(`Bearer ${key}`)).not.toBeNull();
    expect(await auth.authenticate(`Bearer ${forged}`)).toBeNull();
  });

  it('rejects a JWT of a user who is not a member of the token workspace', async () => {
    const member = await seedMember(db.sql);
    const token = await tokenFor({ userId: member.userId, workspaceId: 'ws_elsewhere' });
    expect(await auth.authenticate(`Bearer ${token}`)).toBeNull();
  });
});

describe('authenticate with several bearer credentials', () => {
  it.each([', ', ' '])('lets the first valid one win, separated by %j', async (separator) => {
    const member = await seedMember(db.sql);
    const { key } = await seedApiKey(db.sql, member);
    const token = await tokenFor(member);
    const invalid = 'svc_abcdefgh_AAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const header = (...parts: string[]) => parts.map((p) => `Bearer ${p}`).join(separator);
    expect((await auth.authenticate(header(invalid, key)))?.kind).toBe('api_key');
    expect((await auth.authenticate(header(key, invalid)))?.kind).toBe('api_key');
    expect((await auth.authenticate(header('bad.jwt.value', token)))?.kind).toBe('jwt');
    expect((await auth.authenticate(header(token, 'bad.jwt.value')))?.kind).toBe('jwt');
    expect((await auth.authenticate(header(token, key)))?.kind).toBe('jwt');
    expect((await auth.authenticate(header(key, token)))?.kind).toBe('api_key');
  });
});

describe('revocation', () => {
  it('rejects a revoked key on the next call although it was cached', async () => {
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await auth.authenticate(`Bearer ${key}`)).not.toBeNull();
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`update api_keys set revoked_at = now() where id = ${keyId}`;
      return invalidateApiKey(tx, keyId);
    });
    await auth.settle(invalidation);
    expect(await auth.authenticate(`Bearer ${key}`)).toBeNull();
  });

  it('rejects the JWT of a removed member on the next call although it was cached', async () => {
    const member = await seedMember(db.sql, 'member');
    const header = `Bearer ${await tokenFor(member)}`;
    expect(await auth.authenticate(header)).not.toBeNull();
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`delete from memberships where workspace_id = ${member.workspaceId} and user_id = ${member.userId}`;
      return invalidateMembership(tx, member.workspaceId, member.userId);
    });
    await auth.settle(invalidation);
    expect(await auth.authenticate(header)).toBeNull();
  });

  it('applies a role change on the next call', async () => {
    const member = await seedMember(db.sql, 'member');
    const header = `Bearer ${await tokenFor(member)}`;
    expect(await auth.authenticate(header)).toMatchObject({ role: 'member' });
    await db.sql`update memberships set role = 'admin' where user_id = ${member.userId}`;
    await auth.settle(await invalidateMembership(db.sql, member.workspaceId, member.userId));
    expect(await auth.authenticate(header)).toMatchObject({ role: 'admin' });
  });

  it('serves a cached key without reading the database, which is why handlers must invalidate', async () => {
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await auth.authenticate(`Bearer ${key}`)).not.toBeNull();
    await db.sql`update api_keys set revoked_at = now() where id = ${keyId}`;
    expect(await auth.authenticate(`Bearer ${key}`)).not.toBeNull();
    await auth.settle(await invalidateApiKey(db.sql, keyId));
    expect(await auth.authenticate(`Bearer ${key}`)).toBeNull();
  });
});

describe('authenticate before any database work', () => {
  it('rejects a mistyped key even when the database is gone', async () => {
    const gone = await createTestDatabase();
    const owner = await seedMember(gone.sql);
    const { key } = await seedApiKey(gone.sql, owner);
    const offline = createAuthenticator({ sql: gone.sql, jwt, pepper: testPepper, clock, invalidation: 'local' });
    await gone.close();
    const typo = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    expect(await offline.authenticate(`Bearer ${typo}`)).toBeNull();
    await expect(offline.authenticate(`Bearer ${key}`)).rejects.toThrow();
    await offline.close();
  });
});
