// Real MCP clients against a listening server: the v2 Client in both eras and the 1.x Client, over Streamable HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ALICE, BOB, createToyApp, toyTools } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';

let server: Listening;
const headers = { authorization: `Bearer ${ALICE}` };

beforeAll(async () => {
  server = await listen(createToyApp({ resultCapBytes: 4_000 }).app);
});
afterAll(() => server.close());

interface AnyClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: object; annotations?: object }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function v2(mode: 'legacy' | 'auto'): Promise<AnyClient> {
  const client = new Client({ name: 'test-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
  return client;
}

async function v1(): Promise<AnyClient> {
  const client = new Client1({ name: 'test-v1', version: '1.0.0' });
  await client.connect(new Transport1(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  expect(client.getServerVersion()?.name).toBe('toy-service');
  return client;
}

const clients: [string, () => Promise<AnyClient>][] = [
  ['v2 client, 2025-11-25 handshake', () => v2('legacy')],
  ['v2 client, 2026-07-28 via server/discover', () => v2('auto')],
  ['1.x client', v1],
];

describe.each(clients)('POST /mcp with the %s', (_name, connect) => {
  let client: AnyClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('lists every tool with its outputSchema and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(toyTools.map((t) => t.name));
    const getLead = tools.find((t) => t.name === 'get_lead');
    expect(getLead?.outputSchema).toEqual(toyTools[1].outputSchema);
    expect(getLead?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it('calls a read tool with path and query arguments and returns structured content', async () => {
    const result = await client.callTool({ name: 'get_lead', arguments: { lead_id: 'lead/1 ?', fields: ['a', 'b'] } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: 'lead/1 ?', caller: 'usr_alice', fields: ['a', 'b'], tags: [] });
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);
  });

  it('sends a merged JSON body and header arguments', async () => {
    const result = await client.callTool({
      name: 'create_lead',
      arguments: { email: 'new@x.example', tags: ['vip'], idempotency_key: 'idem-1' },
    });
    expect(result.structuredContent).toMatchObject({ email: 'new@x.example', tags: ['vip'], idempotencyKey: 'idem-1' });
  });

  it('reports a 204 as a text result', async () => {
    const result = await client.callTool({ name: 'delete_lead', arguments: { lead_id: 'lead_1' } });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0].text).toMatch(/^204 .*no content/);
  });

  it('returns isError naming the field for invalid arguments', async () => {
    const result = await client.callTool({ name: 'create_lead', arguments: { email: 'not-an-email', bogus: 1 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    expect(text).toContain('`email` must match format "email"');
    expect(text).toContain('`bogus` is not a known argument');
  });

  it('returns isError with a readable message for a problem response', async () => {
    const result = await client.callTool({
      name: 'create_lead',
      arguments: { email: 'x@y.example', first_name: 'bad' },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    // A validation problem is told in the tool's argument names, not the request's fields.
    expect(text).toMatch(
      /^400 Bad Request: Invalid arguments for create_lead: `first_name` must not be "bad" \(invalid\)\. Fix them and call create_lead again\./,
    );
  });

  it('returns the problem as structured content for a tool without outputSchema', async () => {
    const result = await client.callTool({ name: 'delete_lead', arguments: { lead_id: 'missing' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 404, code: 'not_found' });
    expect((result.content as { text: string }[])[0].text).toMatch(/^404 Not Found: No such lead\./);
  });

  it('cuts a result over the cap with a marker naming the pagination arguments', async () => {
    const result = await client.callTool({ name: 'list_leads', arguments: { limit: 50 } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content as { text: string }[])[0].text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_000);
    expect(text).toMatch(/\[result truncated: .* smaller `limit` and pass each response's `next_cursor` as `cursor`/);
  });

  it('adds a reconnect note to a result that issues a credential, after the unchanged REST body', async () => {
    const result = await client.callTool({ name: 'login', arguments: { user: 'bob', password: 'right' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ access_token: BOB, token_type: 'bearer', expires_in: 900 });
    const content = result.content as { text: string }[];
    expect(content).toHaveLength(2);
    expect(content[1].text).toContain('reconnect to /mcp with the header `Authorization: Bearer <access_token>`');
    const refused = await client.callTool({ name: 'login', arguments: { user: 'bob', password: 'wrong' } });
    expect(refused.isError).toBe(true);
    expect(refused.content as unknown[]).toHaveLength(1);
  });

  it('answers an unknown tool with a JSON-RPC invalid-params error', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message?: string },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('Unknown tool: no_such_tool');
  });
});

describe('POST /mcp protocol errors seen by the v2 client', () => {
  it('raises a ProtocolError for an unknown tool in the 2026-07-28 era', async () => {
    const client = new Client({ name: 'test-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toBeInstanceOf(ProtocolError);
    await client.close();
  });
});
