// Rows the auth tests need (workspaces, users, memberships, API keys), written with plain SQL so
// these unit tests do not depend on the handlers.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Clock } from '../../src/clock.ts';
import { mintApiKey } from '../../src/auth/api-keys.ts';

export const testPepper = new Uint8Array(randomBytes(32));

export function fixedClock(start = '2030-01-01T00:00:00.000Z'): Clock & { advance(seconds: number): void } {
  let time = new Date(start).getTime();
  return {
    now: () => new Date(time),
    advance(seconds) {
      time += seconds * 1000;
    },
  };
}

export async function seedMember(
  sql: Sql,
  role: 'owner' | 'admin' | 'member' = 'owner',
  workspaceId = `ws_${randomUUID()}`,
): Promise<{ workspaceId: string; userId: string }> {
  const userId = `usr_${randomUUID()}`;
  await sql`insert into workspaces (id, name) values (${workspaceId}, 'Acme') on conflict do nothing`;
  await sql`
    insert into users (id, email, name, password_hash)
    values (${userId}, ${`${userId}@example.com`}, 'Ada', 'not-a-hash')`;
  await sql`insert into memberships (workspace_id, user_id, role) values (${workspaceId}, ${userId}, ${role})`;
  return { workspaceId, userId };
}

export async function seedApiKey(
  sql: Sql,
  owner: { workspaceId: string; userId: string },
  pepper = testPepper,
): Promise<{ keyId: string; key: string }> {
  const minted = mintApiKey(pepper);
  const keyId = `key_${randomUUID()}`;
  await sql`
    insert into api_keys (id, workspace_id, name, prefix, secret_hash, created_by)
    values (${keyId}, ${owner.workspaceId}, 'CI', ${minted.prefix}, ${minted.secretHash}, ${owner.userId})`;
  return { keyId, key: minted.key };
}
