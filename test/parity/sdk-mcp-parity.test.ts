// Generated parity: for every tool, the generated SDK call and the MCP tool call (over the real /mcp
// endpoint) answer with the same status class and the same body, once volatile values (ids, times,
// secrets) are masked. Driven by the tool list, so new operations join without new test code. Each side
// works in its own, identically seeded workspace so side effects cannot leak from one into the other.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { ApiProblemError, createClient } from '../../src/generated/sdk.ts';
import { Contract } from '../contract/contract.ts';
import { Sampler } from '../contract/sampler.ts';
import { seedWorkspace, type SeededWorkspace } from '../helpers/seed.ts';
import { createTestApp, listen, uniqueEmail, type TestApp } from '../helpers/app.ts';

type Side = SeededWorkspace;

const contract = Contract.load();
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let sdkSide: Side;
let mcpSide: Side;
let mcp: Client;

/** Ids, timestamps, tokens, keys and generated emails differ between two runs of the same call. */
function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'prefix' ? '<prefix>' : mask(v)]));
  if (typeof value !== 'string') return value;
  return value
    .replace(/\b([a-z]+)_[0-9a-z]{26}\b/g, '$1_<id>')
    .replace(/([?&](state|code_challenge)=)[\w-]+/g, '$1<random>')
    .replace(/([?&]login_hint=)[\w.%+-]+%40example\.com/g, '$1<email>')
    .replace(/^whsec_[A-Za-z0-9+/]+=*$/, '<webhook secret>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/svc_[a-z0-9]{8}_[A-Za-z0-9]+/g, '<key>')
    .replace(/\b[a-z]+\.\d+\.\d+\.\d+@example\.com\b/g, '<email>')
    .replace(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/, '<jwt>')
    .replace(/^inv_[\w-]{32}$/, '<invitation>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
    .replace(/^[A-Za-z0-9_-]{20,}={0,2}$/, '<cursor>');
}

function argsFor(tool: (typeof toolDescriptors)[number], side: Side): Record<string, unknown> {
  const args = new Sampler(contract, side.fixtures).args(tool.binding);
  // Emails must be unique per call (signup refuses a second account), so both sides get fresh ones.
  for (const [name, value] of Object.entries(args))
    if (typeof value === 'string' && value.endsWith('@example.com')) args[name] = uniqueEmail('sample');
  return args;
}

async function viaSdk(name: string, args: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  let status = 0;
  const client = createClient({
    baseUrl: server.url,
    credential: sdkSide.credential,
    maxRetries: 0,
    fetch: async (req) => {
      const res = await fetch(req);
      status = res.status;
      return res;
    },
  });
  try {
    const body = await (client as unknown as Record<string, (a: unknown) => Promise<unknown>>)[name](args);
    return { status, body: body ?? null };
  } catch (error) {
    if (!(error instanceof ApiProblemError)) throw error;
    return { status: error.status, body: error.problem };
  }
}

async function viaMcp(name: string, args: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const result = await mcp.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).find((c) => c.type === 'text')?.text ?? '';
  if (result.isError) {
    // Tools with an outputSchema carry the problem in the text only: 1.x clients validate any
    // structuredContent against the outputSchema, even on errors (see src/mcp/tool-result.ts).
    const problem = (result.structuredContent ?? JSON.parse(text.slice(text.indexOf('\n\n{') + 2))) as {
      status: number;
    };
    return { status: problem.status, body: problem };
  }
  if (result.structuredContent) return { status: 200, body: result.structuredContent };
  try {
    return { status: 200, body: JSON.parse(text) };
  } catch {
    return { status: 204, body: null };
  }
}

beforeAll(async () => {
  t = await createTestApp({ jobs: 'enqueue' });
  server = await listen(t.app);
  sdkSide = await seedWorkspace(server.url, 'parity');
  mcpSide = await seedWorkspace(server.url, 'parity');
  mcp = new Client({ name: 'parity', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${mcpSide.credential}` } },
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await t?.close();
});

// Destructive tools run last, so the fixtures they consume are still there for the others.
const ordered = [...toolDescriptors].sort(
  (a, b) => Number(a.binding.method === 'DELETE') - Number(b.binding.method === 'DELETE'),
);

describe('SDK and MCP tool parity', () => {
  it('covers every tool', () => {
    expect(ordered.map((tool) => tool.name).sort()).toEqual(toolDescriptors.map((tool) => tool.name).sort());
    expect(ordered.length).toBeGreaterThan(0);
  });

  for (const tool of ordered) {
    it(`${tool.name} answers the same through the SDK and the MCP tool`, async () => {
      const sdk = await viaSdk(tool.binding.operationId, argsFor(tool, sdkSide));
      const viaTool = await viaMcp(tool.name, argsFor(tool, mcpSide));
      expect(Math.floor(viaTool.status / 100), `status class (sdk ${sdk.status}, mcp ${viaTool.status})`).toBe(
        Math.floor(sdk.status / 100),
      );
      const normalise = (body: unknown) =>
        mask(body && typeof body === 'object' && 'request_id' in body ? { ...body, request_id: '<id>' } : body);
      expect(normalise(viaTool.body)).toEqual(normalise(sdk.body));
    });
  }
});

describe('comma-separated filters', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['list_operations', { status: ['queued', 'running', 'succeeded'], type: ['webhook_test'] }],
    ['list_events', { type: ['api_key.*', 'workspace.created'] }],
  ];
  for (const [name, args] of cases) {
    it(`${name} answers the same with array filters through the SDK and the MCP tool`, async () => {
      const sdk = await viaSdk(name, args);
      const viaTool = await viaMcp(name, args);
      expect(sdk.status).toBe(200);
      expect(viaTool.status).toBe(200);
      expect(mask(viaTool.body)).toEqual(mask(sdk.body));
    });
  }

  it('goes from the SDK as one comma-joined value', async () => {
    const urls: string[] = [];
    const client = createClient({
      baseUrl: server.url,
      credential: sdkSide.credential,
      fetch: async (req) => (urls.push(req.url), fetch(req)),
    });
    await client.list_operations({ status: ['queued', 'running'], limit: 5 });
    expect(new URL(urls[0]).search).toBe('?status=queued,running&limit=5');
  });
});
