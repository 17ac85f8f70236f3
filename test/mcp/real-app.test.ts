// The dispatcher and the service-mcp launcher against the real app (createApp on a fresh test database)
// with the generated tool descriptors: credentials, validation and problems come from the real pipeline.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { createToolDispatcher, type ToolDispatcher } from '../../src/mcp/dispatch.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let t: TestApp;
let dispatcher: ToolDispatcher;
let jwt: string;
let email: string;
let key: { id: string; key: string };

beforeAll(async () => {
  t = await createTestApp();
  dispatcher = createToolDispatcher({ tools: toolDescriptors, fetch: async (req) => t.app.fetch(req) });
  const user = await t.signup();
  [jwt, email] = [user.token, user.email];
  key = await t.createKey(jwt, 'mcp test');
});
afterAll(() => t.close());

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('tool calls through the real REST pipeline', () => {
  it.each(['JWT', 'API key'])('calls get_me with a %s', async (kind) => {
    const credential = kind === 'JWT' ? jwt : key.key;
    const result = await dispatcher.call('get_me', {}, `Bearer ${credential}`);
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain(email);
  });

  it('answers a call without a credential with the 401 problem as an isError result', async () => {
    const result = await dispatcher.call('get_me', {}, undefined);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^401 Unauthorized/);
  });

  it('creates and lists API keys with structured content', async () => {
    const created = await dispatcher.call('create_api_key', { name: 'from mcp' }, `Bearer ${jwt}`);
    expect((created.structuredContent as { key: string }).key).toMatch(/^svc_/);
    const listed = await dispatcher.call('list_api_keys', { limit: 5 }, `Bearer ${jwt}`);
    expect(Array.isArray((listed.structuredContent as { data: unknown[] }).data)).toBe(true);
  });

  it('answers a missing resource with the 404 problem as an isError result', async () => {
    const result = await dispatcher.call('revoke_api_key', { key_id: `key_${'0'.repeat(26)}` }, `Bearer ${jwt}`);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^404 /);
  });

  it('refuses invalid arguments before any request, naming the field', async () => {
    const result = await dispatcher.call('create_api_key', { name: '' }, `Bearer ${jwt}`);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('`name` must NOT have fewer than 1 characters');
  });
});

describe('service-mcp against the real API', () => {
  let api: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    api = await listen(t.app);
  });
  afterAll(() => api.close());
  const env = (apiKey: string) => ({
    PATH: process.env.PATH ?? '',
    SERVICE_API_KEY: apiKey,
    SERVICE_API_BASE: api.url,
  });

  it('serves the generated tools over stdio with an API key', async () => {
    const client = new Client({ name: 'real-app', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin], env: env(key.key), cwd: '/' }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(toolDescriptors.map((tool) => tool.name));
      const me = await client.callTool({ name: 'get_me', arguments: {} });
      expect(JSON.stringify(me.structuredContent)).toContain(email);
    } finally {
      await client.close();
    }
  });

  it('exits with one line naming SERVICE_API_KEY once the key is revoked', async () => {
    const revoked = await t.createKey(jwt, 'to revoke');
    const res = await t.request(`/api/v1/api-keys/${revoked.id}`, { method: 'DELETE', token: jwt });
    expect(res.status).toBeLessThan(300);
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin], { env: env(revoked.key), cwd: '/' });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d));
      child.on('close', (exit) => resolve({ code: exit, stderr: err }));
    });
    expect(code).not.toBe(0);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/rejected SERVICE_API_KEY \(HTTP 401\)/);
  });
});
