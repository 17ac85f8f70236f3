// The real `bin/service-mcp.js` process against a listening toy API: real stdio clients in both eras, the
// launcher's one-line failures, and a stdout that carries nothing but protocol messages.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransport1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ALICE, createToyApp, toyTools } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
const toolsModule = fileURLToPath(new URL('./fixtures/toy-tools.ts', import.meta.url));
const args = [bin, '--tools', toolsModule];

let api: Listening;
beforeAll(async () => {
  api = await listen(createToyApp().app);
});
afterAll(() => api.close());

function env(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}

/** Runs the launcher to completion with stdin closed, as a client whose server dies at start sees it. */
function run(
  extra: Record<string, string>,
  argv = args,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env: env(extra), cwd: '/' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('service-mcp over stdio', () => {
  const clients: [
    string,
    () => Promise<{ client: { listTools: Client['listTools']; callTool: Client['callTool'] }; close(): Promise<void> }>,
  ][] = [
    ['the v2 client, 2025-11-25', () => connectV2('legacy')],
    ['the v2 client, 2026-07-28', () => connectV2('auto')],
    ['the 1.x client', connectV1],
  ];

  async function connectV2(mode: 'legacy' | 'auto') {
    const client = new Client({ name: 'stdio-test', version: '1' }, { versionNegotiation: { mode } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: env({ SERVICE_API_KEY: ALICE, SERVICE_API_BASE: api.url }),
      cwd: '/',
    });
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
    return { client, close: () => client.close() };
  }

  async function connectV1() {
    const client = new Client1({ name: 'stdio-test', version: '1' });
    await client.connect(
      new StdioTransport1({
        command: process.execPath,
        args,
        env: env({ SERVICE_API_KEY: ALICE, SERVICE_API_BASE: api.url }),
        cwd: '/',
      }),
    );
    return { client: client as unknown as Client, close: () => client.close() };
  }

  it.each(clients)('lists the tools and calls them with the key as %s', async (_name, connect) => {
    const { client, close } = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(toyTools.map((t) => t.name));
      const me = await client.callTool({ name: 'get_me', arguments: { echo: 'hi' } });
      expect(me.structuredContent).toEqual({ id: 'usr_alice', workspace: 'ws_a', echo: 'hi' });
      const problem = await client.callTool({ name: 'create_lead', arguments: { email: 'a@taken.example' } });
      expect(problem.isError).toBe(true);
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await close();
    }
  });

  it('writes nothing but JSON-RPC messages to stdout', async () => {
    const child = spawn(process.execPath, args, {
      env: env({ SERVICE_API_KEY: ALICE, SERVICE_API_BASE: api.url }),
      cwd: '/',
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_me', arguments: {} } },
    ];
    child.stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 10_000 }).toBe(2);
    child.stdin.end();
    await new Promise((r) => child.on('close', r));
    const messages = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(messages.map((m) => m.id)).toEqual([1, 2]);
    expect(messages[0].result.protocolVersion).toBe('2025-06-18');
    expect(messages[1].result.structuredContent.id).toBe('usr_alice');
  });
});

describe('service-mcp start-up failures', () => {
  it.each([
    ['no key at all', {}],
    ['only look-alike variables', { API_KEY: ALICE, SERVICE_APIKEY: ALICE, SERVICE_API_TOKEN: ALICE }],
  ])('exits non-zero with one stderr line naming SERVICE_API_KEY when given %s', async (_name, extra) => {
    const { code, stdout, stderr } = await run({ SERVICE_API_BASE: api.url, ...extra });
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/SERVICE_API_KEY is not set/);
    expect(stderr).toContain('an API key from Settings → API keys');
  });

  it('exits non-zero with one stderr line naming SERVICE_API_KEY when the API rejects the key', async () => {
    const { code, stdout, stderr } = await run({ SERVICE_API_KEY: 'svc_revoked1_nope', SERVICE_API_BASE: api.url });
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/rejected SERVICE_API_KEY \(HTTP 401\)/);
    expect(stderr).toContain('Use an API key from Settings → API keys.');
  });

  it('exits non-zero with one stderr line naming SERVICE_API_BASE when the API is unreachable', async () => {
    const closed = await listen(createToyApp().app);
    await closed.close();
    const { code, stderr } = await run({ SERVICE_API_KEY: ALICE, SERVICE_API_BASE: closed.url });
    expect(code).not.toBe(0);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`cannot reach the API at ${closed.url} (SERVICE_API_BASE): fetch failed (ECONNREFUSED)`);
  });

  it('runs as `npx service-mcp` from the project directory', async () => {
    const npx = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('npx', ['service-mcp'], { cwd: root, env: env({}) });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(npx.code).not.toBe(0);
    expect(npx.stderr).toMatch(/service-mcp: SERVICE_API_KEY is not set/);
  });
});
