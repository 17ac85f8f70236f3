// A statement the database stops at the service's time bound (statement_timeout, DATABASE_QUERY_TIMEOUT_MS) answers
// 503 `database_timeout` with Retry-After, over REST and MCP, writes nothing, and leaves the service serving. On
// PostgreSQL only: the embedded database takes no statement_timeout from its connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type postgres from 'postgres';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';
import { createProxiedDatabase, type ProxiedDatabase } from '../helpers/db-proxy.ts';

const skipped = process.env.DATABASE_URL ? undefined : 'DATABASE_URL is unset: PGlite takes no statement_timeout';
if (skipped) console.log(`test/app/statement-timeout.test.ts skipped: ${skipped}`);

let proxied: ProxiedDatabase;
let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  if (skipped) return;
  proxied = await createProxiedDatabase({ queryTimeoutMs: 1_000 });
  t = await createTestApp({ db: proxied.db });
  owner = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await proxied?.db.close();
});

/** Holds the leads table locked by another transaction while `during` runs, so any statement on it waits. */
async function whileLeadsLocked(during: () => Promise<void>): Promise<void> {
  const held: postgres.ReservedSql = await proxied.db.sql.reserve();
  try {
    await held`begin`;
    await held`lock table leads in access exclusive mode`;
    await during();
  } finally {
    await held`rollback`;
    held.release();
  }
}

async function expectTimeout(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toMatchObject({ code: 'database_timeout', status: 503 });
}

describe.skipIf(skipped)('a statement the database stops at the time bound', () => {
  it('answers REST and MCP with 503 database_timeout, writes nothing, and serves again once the lock is gone', async () => {
    const lead = { email: 'slow@example.com', first_name: 'Slow' };
    await whileLeadsLocked(async () => {
      await expectTimeout(await t.request('/api/v1/leads', { token: owner.token }));
      await expectTimeout(await t.request('/api/v1/leads', { method: 'POST', token: owner.token, json: lead }));
      const res = await t.request('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${owner.token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_leads', arguments: {} },
        }),
      });
      const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^503 /);
      expect(result.content[0].text).toContain('database_timeout');
    });
    const after = await t.request('/api/v1/leads', { token: owner.token });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await t.request('/api/v1/leads', { method: 'POST', token: owner.token, json: lead })).status).toBe(201);
  });
});
