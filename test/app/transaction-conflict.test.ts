// A request whose transaction the database rolls back for meeting another at the same moment (a deadlock, a
// serialization failure) gets a 503 problem with `transaction_conflict` and Retry-After, not a 500: nothing of it
// was written, and a retry runs it again (the SDK retries by itself). On PostgreSQL the deadlock is a real one,
// between the request and a transaction of the test; on either database a trigger raises the same SQLSTATEs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/generated/sdk.ts';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';
import { conflictTrigger, type ConflictTrigger } from '../helpers/conflict-trigger.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await t?.close();
});

/** Fails the next insert into api_keys with `sqlstate`; the trigger is dropped after the test. */
async function failKeyInsert(sqlstate: '40001' | '40P01'): Promise<ConflictTrigger> {
  const conflict = await conflictTrigger(t.db.sql, {
    name: 'key_conflict',
    event: 'insert',
    table: 'api_keys',
    sqlstate,
    times: 1,
  });
  cleanups.push(() => conflict.end());
  return conflict;
}

const keyNames = async (): Promise<string[]> => {
  const res = await t.request('/api/v1/api-keys?limit=100', { token: owner.token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ name: string }> }).data.map((key) => key.name);
};

async function expectConflict(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('retry-after')).toBe('1');
  const body = (await res.json()) as { code: string; status: number; detail: string };
  expect(body).toMatchObject({ code: 'transaction_conflict', status: 503 });
  expect(body.detail).toMatch(/rolled back/);
  // What the database said stays in the log: neither SQL nor its message reaches the client.
  expect(JSON.stringify(body)).not.toMatch(/serialize|deadlock detected|api_keys/);
}

describe('a transaction the database rolls back for meeting another', () => {
  it.each([
    ['a serialization failure', '40001'],
    ['a deadlock', '40P01'],
  ] as const)('answers %s with 503 transaction_conflict and Retry-After, writing nothing', async (_what, sqlstate) => {
    const conflict = await failKeyInsert(sqlstate);
    const before = await keyNames();
    await expectConflict(
      await t.request('/api/v1/api-keys', { method: 'POST', token: owner.token, json: { name: `met ${sqlstate}` } }),
    );
    expect(await conflict.raised()).toBe(1);
    expect(await keyNames()).toEqual(before);
  });

  it('answers an MCP tool call with an isError result naming transaction_conflict', async () => {
    await failKeyInsert('40P01');
    const res = await t.request('/mcp', {
      method: 'POST',
      token: owner.token,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_api_key', arguments: { name: 'x' } },
      },
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^503 /);
    expect(result.content[0].text).toContain('transaction_conflict');
  });

  it('the SDK retries after Retry-After and the key is made once', async () => {
    // One conflict: the SDK's retry meets none.
    const conflict = await failKeyInsert('40001');
    const served: number[] = [];
    const client = createClient({
      baseUrl: 'http://service.test',
      credential: owner.token,
      fetch: async (request: Request) => {
        const response = await t.app.fetch(request);
        served.push(response.status);
        return response;
      },
    });
    const made = await client.create_api_key({ name: 'after a conflict' });
    expect(made.key).toMatch(/^svc_/);
    expect(served).toEqual([503, 201]);
    expect(await conflict.raised()).toBe(1);
    expect((await keyNames()).filter((name) => name === 'after a conflict')).toHaveLength(1);
  });
});

describe.runIf(onPostgres)(
  'a real deadlock on PostgreSQL (skipped on PGlite, where one session cannot deadlock)',
  () => {
    it('answers the request PostgreSQL chose as the victim with 503 transaction_conflict, writing nothing', async () => {
      // The request's insert takes advisory lock 1, then waits for lock 2, which the test holds; the test then asks
      // for lock 1. The test's session waits ten seconds before it looks for a deadlock, the request's one (the
      // default), so PostgreSQL finds the cycle from the request's side and rolls the request back.
      await t.db.sql.unsafe(`
      create or replace function conflict_on_insert() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(7401);
        perform pg_advisory_xact_lock(7402);
        return new;
      end $$`);
      await t.db.sql.unsafe(
        'create trigger conflict_on_insert before insert on api_keys for each row execute function conflict_on_insert()',
      );
      cleanups.push(() => t.db.sql.unsafe('drop trigger conflict_on_insert on api_keys'));
      const before = await keyNames();
      const test = await t.db.sql.reserve();
      try {
        await test`begin`;
        await test`set local deadlock_timeout = '10s'`;
        await test`select pg_advisory_xact_lock(7402)`;
        const request = t.request('/api/v1/api-keys', { method: 'POST', token: owner.token, json: { name: 'victim' } });
        // Until the request waits for lock 2, holding lock 1.
        for (;;) {
          const [row] = await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 7402 and not granted`;
          if (row.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // Sent now (a postgres.js query waits to be awaited otherwise); it returns once the request is rolled back.
        const meet = test`select pg_advisory_xact_lock(7401)`.execute();
        await expectConflict(await request);
        await meet;
      } finally {
        await test`rollback`.catch(() => {});
        test.release();
      }
      expect(await keyNames()).toEqual(before);
    });
  },
);
