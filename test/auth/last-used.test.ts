import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createAuthenticator } from '../../src/auth/authenticator.ts';
import { createJwtService } from '../../src/auth/jwt.ts';
import { createLastUsedRecorder } from '../../src/auth/last-used.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fixedClock, seedApiKey, seedMember, testPepper } from './seed.ts';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

async function lastUsedAt(keyId: string): Promise<Date | null> {
  const rows = await db.sql<{ last_used_at: Date | null }[]>`select last_used_at from api_keys where id = ${keyId}`;
  return rows[0].last_used_at;
}

describe('LastUsedRecorder', () => {
  it('writes nothing until it flushes, then the latest use of each key', async () => {
    const owner = await seedMember(db.sql);
    const [one, two] = [await seedApiKey(db.sql, owner), await seedApiKey(db.sql, owner)];
    const recorder = createLastUsedRecorder({ sql: db.sql, flushIntervalMs: 3_600_000 });
    recorder.touch(one.keyId, new Date('2030-01-01T00:00:05Z'));
    recorder.touch(one.keyId, new Date('2030-01-01T00:00:09Z'));
    recorder.touch(one.keyId, new Date('2030-01-01T00:00:07Z'));
    recorder.touch(two.keyId, new Date('2030-01-01T00:00:01Z'));
    expect(await lastUsedAt(one.keyId)).toBeNull();
    await recorder.flush();
    expect(await lastUsedAt(one.keyId)).toEqual(new Date('2030-01-01T00:00:09Z'));
    expect(await lastUsedAt(two.keyId)).toEqual(new Date('2030-01-01T00:00:01Z'));
    await recorder.close();
  });

  it('never moves last_used_at backwards', async () => {
    const owner = await seedMember(db.sql);
    const { keyId } = await seedApiKey(db.sql, owner);
    const recorder = createLastUsedRecorder({ sql: db.sql, flushIntervalMs: 3_600_000 });
    recorder.touch(keyId, new Date('2030-01-02T00:00:00Z'));
    await recorder.flush();
    recorder.touch(keyId, new Date('2030-01-01T00:00:00Z'));
    await recorder.close();
    expect(await lastUsedAt(keyId)).toEqual(new Date('2030-01-02T00:00:00Z'));
  });

  it('is fed by the authenticator and flushed when it closes', async () => {
    const clock = fixedClock('2030-03-04T05:06:07.000Z');
    const jwt = createJwtService({
      keys: [{ kid: 'k', secret: new Uint8Array(randomBytes(32)) }],
      activeKid: 'k',
      issuer: 'iss',
      audience: 'aud',
      ttlSeconds: 60,
      clock,
    });
    const owner = await seedMember(db.sql);
    const { key, keyId } = await seedApiKey(db.sql, owner);
    const auth = createAuthenticator({
      sql: db.sql,
      jwt,
      pepper: testPepper,
      clock,
      invalidation: 'local',
      lastUsedFlushMs: 3_600_000,
    });
    expect(await auth.authenticate(`Bearer ${key}`)).not.toBeNull();
    expect(await lastUsedAt(keyId)).toBeNull();
    await auth.close();
    expect(await lastUsedAt(keyId)).toEqual(clock.now());
  });
});
