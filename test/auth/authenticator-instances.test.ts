// Two service instances on one PostgreSQL database (PGlite serves exactly one instance).
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createAuthenticator, type Authenticator } from '../../src/auth/authenticator.ts';
import { invalidateApiKey, invalidateMembership } from '../../src/auth/invalidation.ts';
import { createJwtService } from '../../src/auth/jwt.ts';
import { revokeKeysCreatedBy } from '../../src/handlers/api-keys/api-keys-data.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock, seedApiKey, seedMember, testPepper } from './seed.ts';

const url = process.env.DATABASE_URL;
const clock = fixedClock();
const jwt = createJwtService({
  keys: [{ kid: 'k1', secret: new Uint8Array(randomBytes(32)) }],
  activeKid: 'k1',
  issuer: 'iss',
  audience: 'aud',
  ttlSeconds: 900,
  clock,
});

describe.skipIf(!url)('two instances sharing one PostgreSQL database', () => {
  let db: Database;
  let otherSql: postgres.Sql;
  let instanceA: Authenticator;
  let instanceB: Authenticator;

  beforeAll(async () => {
    db = await createTestDatabase();
    const [{ schema }] = await db.sql<{ schema: string }[]>`select current_schema() as schema`;
    // Its own pool and its own LISTEN connection, recognisable by application_name.
    otherSql = postgres(url!, {
      onnotice: () => {},
      connection: { search_path: schema, application_name: `auth-test-${randomUUID()}` },
    });
    const common = { jwt, pepper: testPepper, clock, cacheTtlMs: 10 * 60_000 };
    instanceA = createAuthenticator({ ...common, sql: db.sql, heartbeatMs: 60_000 });
    instanceB = createAuthenticator({ ...common, sql: otherSql, heartbeatMs: 200 });
    expect(await instanceA.ready()).toBe(true);
    expect(await instanceB.ready()).toBe(true);
  });
  afterAll(async () => {
    await instanceA?.close();
    await instanceB?.close();
    await otherSql?.end();
    await db?.close();
  });

  it('rejects on one instance a key revoked through the other, on the next request', async () => {
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await instanceA.authenticate(`Bearer ${key}`)).not.toBeNull();
    expect(await instanceB.authenticate(`Bearer ${key}`)).not.toBeNull();
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`update api_keys set revoked_at = now() where id = ${keyId}`;
      return invalidateApiKey(tx, keyId);
    });
    await instanceA.settle(invalidation);
    expect(await instanceB.authenticate(`Bearer ${key}`)).toBeNull();
    expect(await instanceA.authenticate(`Bearer ${key}`)).toBeNull();
  });

  it('rejects on one instance a member removed through the other, on the next request', async () => {
    const member = await seedMember(db.sql, 'member');
    const header = `Bearer ${(await jwt.sign(member)).access_token}`;
    expect(await instanceA.authenticate(header)).not.toBeNull();
    expect(await instanceB.authenticate(header)).not.toBeNull();
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`delete from memberships where user_id = ${member.userId}`;
      return invalidateMembership(tx, member.workspaceId, member.userId);
    });
    await instanceA.settle(invalidation);
    expect(await instanceB.authenticate(header)).toBeNull();
  });

  it('refuses on one instance a key whose creator was removed through the other, on the next request', async () => {
    const owner = await seedMember(db.sql);
    const admin = await seedMember(db.sql, 'admin', owner.workspaceId);
    const { key } = await seedApiKey(db.sql, admin);
    expect(await instanceA.authenticate(`Bearer ${key}`)).not.toBeNull();
    expect(await instanceB.authenticate(`Bearer ${key}`)).not.toBeNull();
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`delete from memberships where workspace_id = ${admin.workspaceId} and user_id = ${admin.userId}`;
      await revokeKeysCreatedBy(tx, admin.workspaceId, admin.userId, clock.now());
      return invalidateMembership(tx, admin.workspaceId, admin.userId);
    });
    await instanceA.settle(invalidation);
    expect(await instanceB.authenticate(`Bearer ${key}`)).toBeNull();
    expect(await instanceA.authenticate(`Bearer ${key}`)).toBeNull();
  });

  it('lowers on one instance the role of a key whose creator was demoted through the other', async () => {
    const owner = await seedMember(db.sql);
    const admin = await seedMember(db.sql, 'admin', owner.workspaceId);
    const { key } = await seedApiKey(db.sql, admin);
    expect(await instanceB.authenticate(`Bearer ${key}`)).toMatchObject({ role: 'admin' });
    const invalidation = await db.sql.begin(async (tx) => {
      await tx`update memberships set role = 'member' where workspace_id = ${admin.workspaceId} and user_id = ${admin.userId}`;
      return invalidateMembership(tx, admin.workspaceId, admin.userId);
    });
    await instanceA.settle(invalidation);
    expect(await instanceB.authenticate(`Bearer ${key}`)).toMatchObject({ role: 'member' });
  });

  it('does not evict anything for a transaction that rolls back', async () => {
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await instanceB.authenticate(`Bearer ${key}`)).not.toBeNull();
    await expect(
      db.sql.begin(async (tx) => {
        await tx`update api_keys set revoked_at = now() where id = ${keyId}`;
        await invalidateApiKey(tx, keyId);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await instanceB.authenticate(`Bearer ${key}`)).not.toBeNull();
  });

  it('stops trusting its cache when its LISTEN connection drops, so a lost notification does no harm', async () => {
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    expect(await instanceB.authenticate(`Bearer ${key}`)).not.toBeNull();
    const [{ name }] = await otherSql<{ name: string }[]>`select current_setting('application_name') as name`;
    await db.sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = ${name} and query ilike 'listen %'`;
    // Revoked with no notification at all: the worst case of a notification sent during the gap.
    await db.sql`update api_keys set revoked_at = now() where id = ${keyId}`;
    await vi.waitFor(async () => expect(await instanceB.authenticate(`Bearer ${key}`)).toBeNull(), {
      timeout: 10_000,
      interval: 50,
    });
    // It recovers: the cache is trusted again once the listener is back.
    expect(await instanceB.ready(10_000)).toBe(true);
  });

  it('logs its closing as a close, not as an unhealthy listener', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const instance = createAuthenticator({ jwt, pepper: testPepper, clock, sql: db.sql, heartbeatMs: 200, log });
    expect(await instance.ready()).toBe(true);
    await instance.close();
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain('auth invalidation listener closed');
    expect(messages.filter((m) => m.includes('unhealthy'))).toEqual([]);
  });
});
