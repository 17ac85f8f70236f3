// While the database cannot be reached (a restart, a cut connection), requests get a 503 problem with
// `database_unavailable` and Retry-After instead of a 500, over REST and MCP, and the service recovers
// by itself once the database is back.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/generated/sdk.ts';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';
import { createProxiedDatabase, type ProxiedDatabase } from '../helpers/db-proxy.ts';

let proxied: ProxiedDatabase;
let t: TestApp;
let owner: SignupResult;
let key: { id: string; key: string };
beforeAll(async () => {
  proxied = await createProxiedDatabase();
  t = await createTestApp({ db: proxied.db });
  owner = await t.signup();
  key = await t.createKey(owner.token, 'while down');
});
afterAll(async () => {
  await t?.close();
  await proxied?.db.close();
});

async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const body = (await res.json()) as { code: string; status: number };
  expect(body).toMatchObject({ code: 'database_unavailable', status: 503 });
}

const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

function callTool(name: string, args: Record<string, unknown>, credential: string) {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
  return t.request('/mcp', {
    method: 'POST',
    headers: { ...mcpHeaders, authorization: `Bearer ${credential}` },
    body: JSON.stringify(body),
  });
}

describe('a database that cannot be reached', () => {
  it('answers REST, login and MCP with 503 database_unavailable, then recovers on its own', async () => {
    expect((await t.request('/api/v1/api-keys', { token: key.key })).status).toBe(200);
    await proxied.cut();
    try {
      await expectUnavailable(await t.request('/api/v1/api-keys', { token: owner.token }));
      await expectUnavailable(
        await t.request('/api/v1/users/login', {
          method: 'POST',
          json: { email: owner.email, password: owner.password },
        }),
      );
      await expectUnavailable(
        await t.request('/api/v1/api-keys', {
          method: 'POST',
          token: owner.token,
          json: { name: 'during the outage' },
        }),
      );

      const res = await callTool('list_api_keys', {}, owner.token);
      if (res.status === 200) {
        const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toMatch(/^503 /);
        expect(result.content[0].text).toContain('database_unavailable');
      } else {
        await expectUnavailable(res);
      }
    } finally {
      await proxied.restore();
    }
    expect((await t.request('/api/v1/api-keys', { token: owner.token })).status).toBe(200);
    expect(
      (
        await t.request('/api/v1/users/login', {
          method: 'POST',
          json: { email: owner.email, password: owner.password },
        })
      ).status,
    ).toBe(200);
    const after = await callTool('list_api_keys', {}, key.key);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });
});

describe('clients during an outage', () => {
  // The database comes back as soon as the service has answered one 503: a client that retries then succeeds.
  const served: number[] = [];
  async function serveRestoringOn503(request: Request): Promise<Response> {
    const response = await t.app.fetch(request);
    served.push(response.status);
    if (response.status === 503 && served.filter((s) => s === 503).length === 1) await proxied.restore();
    return response;
  }

  it('the SDK retries database_unavailable after Retry-After and succeeds', async () => {
    served.length = 0;
    const client = createClient({
      baseUrl: 'http://service.test',
      credential: owner.token,
      fetch: serveRestoringOn503,
    });
    await proxied.cut();
    const page = await client.list_api_keys({ limit: 5 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(served).toEqual([503, 200]);
  });

  it('the stdio launcher retries database_unavailable and the tool call succeeds', async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: serveRestoringOn503, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
    const mcp = new Client({ name: 'outage', version: '1' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin],
        env: { PATH: process.env.PATH ?? '', SERVICE_API_KEY: key.key, SERVICE_API_BASE: url },
        cwd: '/',
      }),
    );
    try {
      served.length = 0;
      await proxied.cut();
      const result = await mcp.callTool({ name: 'list_api_keys', arguments: { limit: 5 } });
      expect(result.isError).toBeFalsy();
      expect(served[0]).toBe(503);
      expect(served.at(-1)).toBe(200);
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
