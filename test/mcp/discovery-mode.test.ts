// Discovery mode (`?tools=discover`, SERVICE_TOOLS=discover): the connection lists three tools, and call_tool
// runs any selected tool through the same pipeline as a direct call: the same validation messages in the
// tool's own argument names, the same problems, the same idempotency and the same result shape.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let t: TestApp;
let api: Awaited<ReturnType<typeof listen>>;
let key: string;

type Result = { content: Array<{ type: string; text?: string }>; structuredContent?: any; isError?: boolean };
interface Session {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Result>;
  close(): Promise<void>;
}
const text = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');

async function http(query: string, mode: 'legacy' | 'auto' = 'auto'): Promise<Session> {
  const client = new Client({ name: 'discovery', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  api = await listen(t.app);
  const user = await t.signup();
  key = (await t.createKey(user.token, 'discovery test')).key;
});
afterAll(async () => {
  await api?.close();
  await t?.close();
});

describe.each([
  ['2025-11-25 handshake', 'legacy'],
  ['2026-07-28 era', 'auto'],
] as const)('discovery mode over HTTP, %s', (_era, mode) => {
  let discover: Session;
  let direct: Session;
  beforeAll(async () => {
    [discover, direct] = await Promise.all([http('?tools=discover', mode), http('', mode)]);
  });
  afterAll(async () => {
    await discover.close();
    await direct.close();
  });

  it('lists exactly search_tools, describe_tool and call_tool, under 1,500 tokens', async () => {
    const { tools } = await discover.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    expect(JSON.stringify(tools).length / 4).toBeLessThan(1_500);
  });

  it('finds the tool for a task in plain words', async () => {
    const found = await discover.callTool({ name: 'search_tools', arguments: { query: 'import a CSV file of leads' } });
    expect(found.isError).toBeFalsy();
    const names = found.structuredContent.tools.map((hit: { name: string }) => hit.name);
    expect(names.slice(0, 3)).toContain('bulk_import_leads');
    expect(found.structuredContent.tools[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      toolset: expect.any(String),
    });
  });

  it('describes a tool with the schemas the full listing carries', async () => {
    const described = await discover.callTool({ name: 'describe_tool', arguments: { name: 'create_lead' } });
    const descriptor = toolDescriptors.find((d) => d.name === 'create_lead')!;
    expect(described.structuredContent).toMatchObject({
      name: 'create_lead',
      toolset: 'leads',
      description: descriptor.description,
      inputSchema: descriptor.inputSchema,
    });
  });

  it('answers call_tool with the tool’s own result, as a direct call does', async () => {
    const [through, straight] = await Promise.all([
      discover.callTool({ name: 'call_tool', arguments: { name: 'get_me', arguments: {} } }),
      direct.callTool({ name: 'get_me', arguments: {} }),
    ]);
    expect(through.isError).toBeFalsy();
    expect(through.structuredContent).toEqual(straight.structuredContent);
  });

  it('reports invalid arguments in the tool’s own argument names, word for word as a direct call', async () => {
    const args = { email: 'not an email', unknown_field: 1 };
    const [through, straight] = await Promise.all([
      discover.callTool({ name: 'call_tool', arguments: { name: 'create_lead', arguments: args } }),
      direct.callTool({ name: 'create_lead', arguments: args }),
    ]);
    expect(through.isError).toBe(true);
    expect(text(through)).toEqual(text(straight));
  });

  it('answers a missing resource with the same 404 problem as a direct call', async () => {
    const args = { lead_id: `lead_${'0'.repeat(26)}` };
    const [through, straight] = await Promise.all([
      discover.callTool({ name: 'call_tool', arguments: { name: 'get_lead', arguments: args } }),
      direct.callTool({ name: 'get_lead', arguments: args }),
    ]);
    expect(text(through)).toMatch(/^404 /);
    const sameRequest = (answer: string) => answer.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<request id>');
    expect(sameRequest(text(through))).toEqual(sameRequest(text(straight)));
  });

  it('keeps idempotency: a retried create with the same key creates one lead', async () => {
    const email = `idem-${mode}@example.com`;
    const create = { name: 'create_lead', arguments: { email, idempotency_key: `discover-${mode}` } };
    const first = await discover.callTool({ name: 'call_tool', arguments: create });
    const second = await discover.callTool({ name: 'call_tool', arguments: create });
    expect(first.isError).toBeFalsy();
    expect(second.structuredContent.id).toBe(first.structuredContent.id);
    const listed = await direct.callTool({ name: 'list_leads', arguments: { q: email } });
    expect(listed.structuredContent.data.filter((l: { email: string }) => l.email === email)).toHaveLength(1);
  });

  it('tells an agent that calls a tool that does not exist to search', async () => {
    const result = await discover.callTool({ name: 'call_tool', arguments: { name: 'make_coffee' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/no tool named make_coffee; find one with search_tools/);
  });
});

describe('discovery mode with a selection', () => {
  it('searches and calls only within the connection’s toolsets', async () => {
    const session = await http('?tools=discover&toolsets=blogs');
    const found = await session.callTool({ name: 'search_tools', arguments: { query: 'who am I logged in as' } });
    expect(found.structuredContent.tools.every((hit: { toolset: string }) => hit.toolset === 'blogs')).toBe(true);
    const refused = await session.callTool({ name: 'call_tool', arguments: { name: 'get_me' } });
    expect(text(refused)).toMatch(/get_me is not available on this connection, which has the toolsets blogs/);
    const described = await session.callTool({ name: 'describe_tool', arguments: { name: 'get_me' } });
    expect(described.isError).toBe(true);
    await session.close();
  });

  it('finds only read-only tools and refuses writes through call_tool on a read-only connection', async () => {
    const session = await http('?tools=discover&readonly=true');
    const found = await session.callTool({ name: 'search_tools', arguments: { query: 'create a lead', limit: 20 } });
    const readOnly = new Set(toolDescriptors.filter((d) => d.annotations.readOnlyHint).map((d) => d.name));
    expect(found.structuredContent.tools.length).toBeGreaterThan(0);
    expect(found.structuredContent.tools.every((hit: { name: string }) => readOnly.has(hit.name))).toBe(true);
    const refused = await session.callTool({
      name: 'call_tool',
      arguments: { name: 'create_lead', arguments: { email: 'ro-discover@example.com' } },
    });
    expect(text(refused)).toMatch(/create_lead changes data and this connection is read-only/);
    await session.close();
  });

  it('refuses a search_tools toolset the connection does not have, naming the ones it has', async () => {
    const session = await http('?tools=discover&toolsets=leads,blogs');
    const result = await session.callTool({
      name: 'search_tools',
      arguments: { query: 'webinar', toolset: 'webinars' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/`toolset` must be one of this connection's toolsets: leads, blogs/);
    await session.close();
  });
});

describe('discovery mode over the stdio launcher', () => {
  it('lists the three tools with SERVICE_TOOLS=discover and runs a call through call_tool', async () => {
    const client = new Client({ name: 'discovery-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin],
        env: {
          PATH: process.env.PATH ?? '',
          SERVICE_API_KEY: key,
          SERVICE_API_BASE: api.url,
          SERVICE_TOOLS: 'discover',
        },
        cwd: '/',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
      const me = (await client.callTool({ name: 'call_tool', arguments: { name: 'get_me' } })) as Result;
      expect(me.isError).toBeFalsy();
      expect(me.structuredContent.workspace).toBeDefined();
    } finally {
      await client.close();
    }
  });
});
