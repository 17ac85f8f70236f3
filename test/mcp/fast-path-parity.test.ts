// The fast path must answer exactly as the SDK serving does: each request goes to one app with the fast path and
// one without, and the two answers must be byte-identical (status, content type, body).

import { describe, expect, it } from 'vitest';
import { ALICE, BOB, createToyApp, toyTools } from './fixtures/toy-app.ts';
import { createFastPath } from '../../src/mcp/fast-path.ts';
import { createMcpHttpHandler } from '../../src/mcp/http.ts';
import { toWireTools } from '../../src/mcp/server-factory.ts';

const fast = createToyApp({ resultCapBytes: 4_000 }).app;
const sdk = createToyApp({ resultCapBytes: 4_000, fastPath: false }).app;

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const base = {
  authorization: `Bearer ${ALICE}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function legacy(
  method: string,
  params?: object,
  headers: Record<string, string> = { 'mcp-protocol-version': '2025-11-25' },
) {
  return { headers: { ...base, ...headers }, body: { jsonrpc: '2.0', id: 7, method, ...(params && { params }) } };
}

function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    headers: { ...base, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name, ...headers },
    body: { jsonrpc: '2.0', id: 'req-1', method, params: { ...params, _meta: envelope } },
  };
}

const call = (name: string, args?: object) => ({ name, ...(args && { arguments: args }) });

// [case, request, whether the fast path takes it (everything else must reach the SDK serving)]
const cases: [string, { headers: Record<string, string>; body: unknown }, boolean][] = [
  ['legacy tools/list', legacy('tools/list'), true],
  ['legacy tools/list at 2025-06-18', legacy('tools/list', undefined, { 'mcp-protocol-version': '2025-06-18' }), true],
  ['legacy tools/list at 2025-03-26', legacy('tools/list', {}, { 'mcp-protocol-version': '2025-03-26' }), true],
  ['legacy tools/list without a version header', legacy('tools/list', undefined, {}), true],
  [
    'legacy tools/call with structured output',
    legacy('tools/call', call('get_lead', { lead_id: 'a/b c', fields: ['x', 'y'] })),
    true,
  ],
  ['legacy tools/call without arguments', legacy('tools/call', call('get_me')), true],
  [
    'legacy tools/call with a progress token',
    legacy('tools/call', { ...call('get_me'), _meta: { progressToken: 3 } }),
    true,
  ],
  [
    'legacy tools/call answered by a problem',
    legacy('tools/call', call('create_lead', { email: 'x@taken.example' })),
    true,
  ],
  [
    'legacy tools/call with field errors',
    legacy('tools/call', call('create_lead', { email: 'x@y.example', first_name: 'bad' })),
    true,
  ],
  [
    'legacy tools/call with invalid arguments',
    legacy('tools/call', call('create_lead', { email: 'nope', extra: 1 })),
    true,
  ],
  ['legacy tools/call answered 204', legacy('tools/call', call('delete_lead', { lead_id: 'lead_1' })), true],
  [
    'legacy tools/call problem without outputSchema',
    legacy('tools/call', call('delete_lead', { lead_id: 'missing' })),
    true,
  ],
  ['legacy tools/call over the result cap', legacy('tools/call', call('list_leads', { limit: 40 })), true],
  ['legacy tools/call whose response body fails', legacy('tools/call', call('export_leads', {})), true],
  ['modern tools/call whose response body fails', modern('tools/call', call('export_leads', {})), true],
  [
    'legacy tools/call that issues a credential',
    legacy('tools/call', call('login', { user: 'bob', password: 'right' })),
    true,
  ],
  [
    'legacy tools/call whose login fails',
    legacy('tools/call', call('login', { user: 'bob', password: 'wrong' })),
    true,
  ],
  ['legacy tools/call of an unknown tool', legacy('tools/call', call('no_such_tool')), false],
  [
    'legacy unsupported version header',
    legacy('tools/list', undefined, { 'mcp-protocol-version': '2024-11-05' }),
    false,
  ],
  ['legacy Accept without event-stream', legacy('tools/list', undefined, { accept: 'application/json' }), false],
  ['legacy tools/list with a cursor', legacy('tools/list', { cursor: 'abc' }), false],
  ['legacy tools/call with a non-object arguments', legacy('tools/call', { name: 'get_me', arguments: [1] }), false],
  ['legacy ping', legacy('ping'), false],
  ['modern tools/list', modern('tools/list'), true],
  ['modern tools/call with structured output', modern('tools/call', call('get_lead', { lead_id: 'lead_1' })), true],
  [
    'modern tools/call answered by a problem',
    modern('tools/call', call('create_lead', { email: 'x@taken.example' })),
    true,
  ],
  ['modern tools/call with invalid arguments', modern('tools/call', call('get_lead', {})), true],
  ['modern tools/call answered 204', modern('tools/call', call('delete_lead', { lead_id: 'lead_1' })), true],
  ['modern tools/call over the result cap', modern('tools/call', call('list_leads', { limit: 40 })), true],
  [
    'modern tools/call that issues a credential',
    modern('tools/call', call('login', { user: 'bob', password: 'right' })),
    true,
  ],
  ['modern tools/call of an unknown tool', modern('tools/call', call('no_such_tool')), false],
  ['modern Mcp-Name mismatch', modern('tools/call', call('get_me'), { 'mcp-name': 'get_lead' }), false],
  ['modern Mcp-Method missing', modern('tools/list', {}, { 'mcp-method': '' }), false],
  ['modern version header mismatch', modern('tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }), false],
  [
    'modern invalid envelope',
    {
      ...modern('tools/list'),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': 5 } },
      },
    },
    false,
  ],
  [
    'modern unsupported revision',
    {
      ...modern('tools/list'),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
      },
    },
    false,
  ],
  [
    'modern invalid client info',
    {
      ...modern('tools/list'),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...envelope, 'io.modelcontextprotocol/clientInfo': { name: 5 } } },
      },
    },
    false,
  ],
  [
    'modern Mcp-Name in base64 form',
    modern('tools/call', call('get_me'), { 'mcp-name': '=?base64?Z2V0X21l?=' }),
    false,
  ],
  [
    'legacy _meta with envelope keys but no claim',
    legacy('tools/call', { ...call('get_me'), _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }),
    true,
  ],
  ['modern server/discover', modern('server/discover'), false],
  ['a batch', { headers: { ...base }, body: [legacy('tools/list').body] }, false],
  ['a notification', legacy('notifications/initialized'), false],
  ['a null id', { headers: base, body: { jsonrpc: '2.0', id: null, method: 'tools/list' } }, false],
  ['a body that is not JSON', { headers: base, body: '{"jsonrpc":' }, false],
];

async function answer(app: typeof fast, request: { headers: Record<string, string>; body: unknown }) {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([, v]) => v !== ''));
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  const res = await app.request('/mcp', { method: 'POST', headers, body });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('fast path', () => {
  it.each(cases)('answers %s exactly as the SDK serving does', async (_name, request) => {
    const [viaFast, viaSdk] = [await answer(fast, request), await answer(sdk, request)];
    expect(viaFast).toEqual(viaSdk);
  });

  it('answers a dispatcher failure with the in-band JSON-RPC error the SDK serving sends', async () => {
    const failing = {
      has: () => true,
      call: () => Promise.reject(Object.assign(new Error('boom'), { data: { at: 'x' } })),
    };
    const handler = (fastPath: boolean) =>
      createMcpHttpHandler({
        tools: toyTools,
        dispatcher: failing,
        serverInfo: { name: 'toy', version: '1' },
        fastPath,
      });
    const request = legacy('tools/call', call('get_me'));
    const send = async (fastPath: boolean) => {
      const res = await handler(fastPath)(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(request.body),
        }),
      );
      return { status: res.status, body: await res.text() };
    };
    const [viaFast, viaSdk] = [await send(true), await send(false)];
    expect(viaFast).toEqual(viaSdk);
    expect(JSON.parse(viaFast.body).error).toEqual({ code: -32603, message: 'boom', data: { at: 'x' } });
  });

  it('adds the reconnect note after the REST body on both paths', async () => {
    const request = legacy('tools/call', call('login', { user: 'bob', password: 'right' }));
    for (const app of [fast, sdk]) {
      const { result } = JSON.parse((await answer(app, request)).body) as {
        result: { content: { text: string }[]; structuredContent: unknown };
      };
      expect(result.structuredContent).toEqual({ access_token: BOB, token_type: 'bearer', expires_in: 900 });
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
      expect(result.content[1].text).toMatch(
        /^This connection still acts with the credential it connected with\..*`Authorization: Bearer <access_token>`/,
      );
    }
  });

  const { dispatcher } = createToyApp();
  const path = createFastPath({
    wireTools: toWireTools(toyTools),
    dispatcher,
    serverInfo: { name: 'toy', version: '1' },
  });
  it.each(cases)('takes %s only when it is plain (or leaves it to the SDK)', async (_name, request, takes) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([, v]) => v !== ''));
    const taken = path(new Request('http://localhost/mcp', { method: 'POST', headers }), request.body);
    expect(taken !== undefined).toBe(takes);
    await taken;
  });
});
