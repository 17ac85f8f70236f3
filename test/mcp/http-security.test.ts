// Security and transport rules of POST /mcp on a listening server: auth before any protocol work, Origin,
// protocol-version and method refusals, and isolation between concurrent callers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ALICE, BOB, createToyApp } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';

const toy = createToyApp({ allowedOrigins: ['https://app.example.com', 'localhost'] });
const unoptimised = createToyApp({ fastPath: false });
let server: Listening;
let sdkServer: Listening;

beforeAll(async () => {
  [server, sdkServer] = await Promise.all([listen(toy.app), listen(unoptimised.app)]);
});
afterAll(async () => {
  await Promise.all([server.close(), sdkServer.close()]);
});

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

function post(body: unknown, headers: Record<string, string>, url = server.url) {
  return fetch(`${url}/mcp`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
}

describe('POST /mcp authentication', () => {
  it('answers 401 with WWW-Authenticate before any protocol work when the credential is missing or bad', async () => {
    const before = toy.stats.mcpHandled;
    for (const headers of [{}, { authorization: 'Bearer svc_wrong_key' }, { authorization: ALICE }] as Record<
      string,
      string
    >[]) {
      const res = await post(initialize, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(toy.stats.mcpHandled).toBe(before);
  });

  it('makes the v2 client fail to connect without a credential', async () => {
    const client = new Client({ name: 't', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))).rejects.toThrow();
  });
});

describe('POST /mcp Origin validation', () => {
  const auth = { authorization: `Bearer ${ALICE}` };

  it.each(['https://evil.example', 'null', 'https://app.example.com.evil.example', 'http://app.example.com'])(
    'refuses Origin %s with 403',
    async (origin) => {
      const res = await post(initialize, { ...auth, origin });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe(-32000);
    },
  );

  it.each(['https://app.example.com', 'http://localhost:5173'])('accepts the allowed Origin %s', async (origin) => {
    const res = await post(initialize, { ...auth, origin });
    expect(res.status).toBe(200);
  });
});

describe('POST /mcp transport rules', () => {
  const auth = { authorization: `Bearer ${ALICE}` };

  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
  ])('answers an initialize asking for %s with protocol version %s', async (asked, answered) => {
    const res = await post({ ...initialize, params: { ...initialize.params, protocolVersion: asked } }, auth);
    expect((await res.json()).result.protocolVersion).toBe(answered);
  });

  it('answers 400 for an unsupported MCP-Protocol-Version', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { ...auth, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Unsupported protocol version/);
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const res = await fetch(`${server.url}/mcp`, {
      method,
      headers: { ...auth, accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain', accept: json.accept },
      body: '{}',
    });
    expect(res.status).toBe(415);
  });

  it('answers 406 to a 2025-era POST that does not accept both JSON and SSE', async () => {
    const res = await post(initialize, { ...auth, accept: 'application/json' });
    expect(res.status).toBe(406);
  });

  it('answers JSON, never an SSE stream or a session id, in both eras', async () => {
    const res = await post(initialize, auth);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('POST /mcp isolation between callers', () => {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };

  function callAs(key: string, echo: string, era: 'legacy' | 'modern', url: string) {
    const params = {
      name: 'get_me',
      arguments: { echo, delay_ms: Number(echo.slice(-1)) },
      ...(era === 'modern' && { _meta: envelope }),
    };
    const headers: Record<string, string> =
      era === 'modern'
        ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_me' }
        : { 'mcp-protocol-version': '2025-11-25' };
    return post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
      { ...headers, authorization: `Bearer ${key}` },
      url,
    );
  }

  it.each([
    ['legacy', 'fast path'],
    ['modern', 'fast path'],
    ['legacy', 'SDK serving'],
    ['modern', 'SDK serving'],
  ] as const)('gives every concurrent %s caller its own result with the same JSON-RPC id (%s)', async (era, path) => {
    const url = path === 'fast path' ? server.url : sdkServer.url;
    const calls = Array.from({ length: 120 }, (_, i) => {
      const [key, user] = i % 2 === 0 ? [ALICE, 'usr_alice'] : [BOB, 'usr_bob'];
      const echo = `${user}-${i}`;
      return callAs(key, echo, era, url).then(async (res) => ({ user, echo, body: await res.json() }));
    });
    for (const { user, echo, body } of await Promise.all(calls)) {
      expect(body.id).toBe(1);
      expect(body.result.structuredContent).toMatchObject({ id: user, echo });
    }
  });
});
