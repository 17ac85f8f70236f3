// What one MCP connection sees, chosen per connection: toolsets, read-only and discovery mode, over Streamable
// HTTP (query parameters and headers, both protocol eras) and the service-mcp stdio launcher (environment),
// with the official client against the real app. The selection changes what is listed and what may be called;
// every call is still the REST pipeline's.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolDescriptors, toolsets } from '../../src/generated/mcp-tools.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let t: TestApp;
let api: Awaited<ReturnType<typeof listen>>;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  api = await listen(t.app);
  const user = await t.signup();
  key = (await t.createKey(user.token, 'selection test')).key;
});
afterAll(async () => {
  await api?.close();
  await t?.close();
});

type Result = { content: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
interface Session {
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Result>;
  close(): Promise<void>;
}

const text = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');
const members = (name: string) => toolsets.find((s) => s.name === name)?.tools ?? [];
const inOrder = (names: Set<string>) => toolDescriptors.map((d) => d.name).filter((n) => names.has(n));
const readOnly = new Set(toolDescriptors.filter((d) => d.annotations.readOnlyHint).map((d) => d.name));

async function http(query: string, mode: 'legacy' | 'auto', headers: Record<string, string> = {}): Promise<Session> {
  const client = new Client({ name: 'selection', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
    }),
  );
  return client;
}

async function stdio(env: Record<string, string>): Promise<Session> {
  const client = new Client({ name: 'selection-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: { PATH: process.env.PATH ?? '', SERVICE_API_KEY: key, SERVICE_API_BASE: api.url, ...env },
      cwd: '/',
    }),
  );
  return client;
}

async function names(session: Session): Promise<string[]> {
  return (await session.listTools()).tools.map((tool) => tool.name);
}

describe.each([
  ['2025-11-25 handshake', 'legacy'],
  ['2026-07-28 era', 'auto'],
] as const)('Streamable HTTP, %s', (_era, mode) => {
  it('lists every tool to a client that asks for nothing', async () => {
    const session = await http('', mode);
    expect(await names(session)).toEqual(toolDescriptors.map((d) => d.name));
    await session.close();
  });

  it('lists exactly the tools of the toolsets named in ?toolsets=', async () => {
    const session = await http('?toolsets=leads,knowledge', mode);
    expect(await names(session)).toEqual(inOrder(new Set([...members('leads'), ...members('knowledge')])));
    await session.close();
  });

  it('takes the X-MCP-Toolsets header over the query parameter when both are given', async () => {
    const session = await http('?toolsets=leads', mode, { 'X-MCP-Toolsets': 'blogs' });
    expect(await names(session)).toEqual(inOrder(new Set(members('blogs'))));
    await session.close();
  });

  it('refuses a tool outside the selection, naming the toolset that has it', async () => {
    const session = await http('?toolsets=blogs', mode);
    const result = await session.callTool({ name: 'get_me', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/get_me is not available on this connection, which has the toolsets blogs/);
    expect(text(result)).toContain('"account"');
    await session.close();
  });

  it('lists only read-only tools with X-MCP-Readonly and refuses a write whatever the credential', async () => {
    const session = await http('', mode, { 'X-MCP-Readonly': 'true' });
    const listed = await names(session);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.every((n) => readOnly.has(n))).toBe(true);
    const result = await session.callTool({ name: 'create_lead', arguments: { email: 'ro@example.com' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/create_lead changes data and this connection is read-only/);
    const leads = await session.callTool({ name: 'list_leads', arguments: {} });
    expect(leads.isError).toBeFalsy();
    expect(JSON.stringify(leads.structuredContent)).not.toContain('ro@example.com');
    await session.close();
  });

  it('combines toolsets and read-only: ?toolsets=leads&readonly=true', async () => {
    const session = await http('?toolsets=leads&readonly=true', mode);
    expect(await names(session)).toEqual(inOrder(new Set(members('leads').filter((n) => readOnly.has(n)))));
    await session.close();
  });
});

describe('a bad selection over HTTP', () => {
  it('answers an unknown toolset with a 400 problem listing the valid ones', async () => {
    const response = await fetch(`${api.url}/mcp?toolsets=leads,crm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await response.json()) as { detail: string; valid: string[]; errors: Array<{ field: string }> };
    expect(problem.detail).toContain('unknown toolset "crm"');
    expect(problem.valid).toEqual(['all', ...toolsets.map((s) => s.name)]);
    expect(problem.errors[0].field).toBe('query.toolsets');
  });

  it('names the header when the bad value came from X-MCP-Readonly', async () => {
    const response = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-mcp-readonly': 'maybe' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { detail: string };
    expect(problem.detail).toMatch(/X-MCP-Readonly header must be true or false/);
  });

  it('still answers 401 before looking at the selection when the credential is missing', async () => {
    const response = await fetch(`${api.url}/mcp?toolsets=crm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });
});

describe('the stdio launcher', () => {
  it('lists the tools of SERVICE_TOOLSETS, read-only with SERVICE_READONLY', async () => {
    const session = await stdio({ SERVICE_TOOLSETS: 'leads, sequences', SERVICE_READONLY: 'true' });
    const want = new Set([...members('leads'), ...members('sequences')].filter((n) => readOnly.has(n)));
    expect(await names(session)).toEqual(inOrder(want));
    const refused = await session.callTool({ name: 'get_me', arguments: {} });
    expect(text(refused)).toMatch(/get_me is not available on this connection/);
    await session.close();
  });

  it('refuses to start on an unknown toolset with the HTTP message on one stderr line', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin], {
        env: { PATH: process.env.PATH ?? '', SERVICE_API_KEY: key, SERVICE_API_BASE: api.url, SERVICE_TOOLSETS: 'crm' },
        cwd: '/',
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d));
      child.on('close', (exit) => resolve({ code: exit, stderr: err }));
    });
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(
      `service-mcp: SERVICE_TOOLSETS names unknown toolset "crm"; valid toolsets: all, ${toolsets.map((s) => s.name).join(', ')}.`,
    );
  });
});
