// The tool dispatcher against real Hono apps called in-process: how arguments become a REST request, and how
// responses become tool results.

import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { ProtocolError } from '@modelcontextprotocol/server';
import { createToolDispatcher } from '../../src/mcp/dispatch.ts';
import type { ToolDescriptor } from '../../src/mcp/tool-descriptor.ts';

// Echoes what arrived, so the assertions see the request exactly as the REST pipeline sees it.
const echo = new Hono();
echo.all('/api/v1/things/:id/:sub', async (c) => {
  const url = new URL(c.req.url);
  const query: Record<string, string[]> = {};
  for (const key of new Set(url.searchParams.keys())) query[key] = url.searchParams.getAll(key);
  return c.json({
    method: c.req.method,
    rawPath: url.pathname,
    params: c.req.param(),
    query,
    authorization: c.req.header('authorization') ?? null,
    trace: c.req.header('x-trace') ?? null,
    contentType: c.req.header('content-type') ?? null,
    body: c.req.method === 'GET' ? null : await c.req.text(),
  });
});

function tool(partial: Partial<ToolDescriptor> & Pick<ToolDescriptor, 'name' | 'binding'>): ToolDescriptor {
  return {
    title: partial.name,
    description: partial.name,
    inputSchema: { type: 'object' },
    annotations: {},
    ...partial,
  };
}

const thing = tool({
  name: 'update_thing',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      sub: { type: 'string' },
      tag: { type: 'array', items: { type: 'string' } },
      filter: { type: 'object' },
      flag: { type: 'boolean' },
      gone: { type: ['string', 'null'] },
      trace: { type: 'array', items: { type: 'string' } },
      name: { type: 'string' },
      size: { type: 'integer', minimum: 1 },
    },
    required: ['id', 'sub'],
    additionalProperties: false,
  },
  binding: {
    operationId: 'updateThing',
    method: 'PATCH',
    path: '/api/v1/things/{thing_id}/{sub}',
    body: 'merged',
    args: [
      { name: 'id', in: 'path', key: 'thing_id' },
      { name: 'sub', in: 'path', key: 'sub' },
      { name: 'tag', in: 'query', key: 'tag' },
      { name: 'filter', in: 'query', key: 'filter' },
      { name: 'flag', in: 'query', key: 'flag' },
      { name: 'gone', in: 'query', key: 'gone' },
      { name: 'trace', in: 'header', key: 'X-Trace' },
      { name: 'name', in: 'body', key: 'name' },
      { name: 'size', in: 'body', key: 'size' },
    ],
  },
});

const csv = tool({
  name: 'import_csv',
  binding: {
    operationId: 'importCsv',
    method: 'POST',
    path: '/api/v1/things/csv/import',
    body: 'whole',
    contentType: 'text/csv',
    args: [{ name: 'csv', in: 'body', key: '' }],
  },
});

const dispatcher = createToolDispatcher({ tools: [thing, csv], fetch: async (req) => echo.fetch(req) });

async function structured(name: string, args: Record<string, unknown>, authorization?: string) {
  const result = await dispatcher.call(name, args, authorization);
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe('createToolDispatcher request building', () => {
  it('percent-encodes path arguments so they cannot change the route', async () => {
    const seen = await structured('update_thing', { id: 'a/b?c#d', sub: 'x y' });
    expect(seen.rawPath).toBe('/api/v1/things/a%2Fb%3Fc%23d/x%20y');
    expect(seen.params).toEqual({ id: 'a/b?c#d', sub: 'x y' });
  });

  it('repeats array query arguments, sends objects as JSON and omits nulls', async () => {
    const seen = await structured('update_thing', {
      id: '1',
      sub: 's',
      tag: ['a', 'b'],
      filter: { q: 1 },
      flag: false,
      gone: null,
    });
    expect(seen.query).toEqual({ tag: ['a', 'b'], filter: ['{"q":1}'], flag: ['false'] });
  });

  it('sends header arguments, the caller credential, and only the given body fields as JSON', async () => {
    const seen = await structured('update_thing', { id: '1', sub: 's', trace: ['t1', 't2'], name: 'n' }, 'Bearer k');
    expect(seen).toMatchObject({
      method: 'PATCH',
      authorization: 'Bearer k',
      trace: 't1, t2',
      contentType: 'application/json',
    });
    expect(JSON.parse(seen.body)).toEqual({ name: 'n' });
  });

  it('sends no Authorization header when the caller has none', async () => {
    expect((await structured('update_thing', { id: '1', sub: 's' })).authorization).toBeNull();
  });

  it('sends a whole string body verbatim for a non-JSON media type', async () => {
    const seen = await structured('import_csv', { csv: 'email\na@b.example\n' });
    expect(seen).toMatchObject({ contentType: 'text/csv', body: 'email\na@b.example\n' });
  });
});

describe('createToolDispatcher argument validation', () => {
  it.each([
    [{ sub: 's' }, '`id` is required'],
    [{ id: '1', sub: 's', size: 0 }, '`size` must be >= 1'],
    [{ id: '1', sub: 's', tag: ['a', 2] }, '`tag[1]` must be string'],
    [{ id: '1', sub: 's', color: 'red' }, '`color` is not a known argument'],
  ])('answers %j with an isError result naming the field', async (args, message) => {
    const result = await dispatcher.call('update_thing', args, undefined);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain(message);
  });

  it('names an unknown property of an object closed with additionalProperties: { not: {} }', async () => {
    const closed = tool({
      name: 'closed',
      inputSchema: {
        type: 'object',
        properties: {
          body: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { not: {} } },
        },
      },
      binding: {
        operationId: 'closed',
        method: 'POST',
        path: '/x',
        body: 'whole',
        args: [{ name: 'body', in: 'body', key: '' }],
      },
    });
    const closedDispatcher = createToolDispatcher({ tools: [closed], fetch: async (req) => echo.fetch(req) });
    const result = await closedDispatcher.call('closed', { body: { a: 'x', b: 1 } }, undefined);
    expect((result.content[0] as { text: string }).text).toContain('`body.b` is not a known argument');
  });

  it('throws a JSON-RPC invalid-params error for an unknown tool', async () => {
    const error = await dispatcher.call('nope', {}, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });
});

describe('createToolDispatcher with validation left to the API', () => {
  // Answers like the REST route's validation hook: one field error per location, under the wire names.
  const strict = new Hono();
  strict.all('/api/v1/things/:id/:sub', (c) => {
    const errors = [
      { field: 'header.x-trace', code: 'too_big', message: 'Too big' },
      { field: 'query.tag.1', code: 'invalid_type', message: 'Expected string' },
      { pointer: '/size', code: 'too_small', message: 'Too small' },
    ];
    const problem = {
      title: 'Bad Request',
      status: 400,
      detail: 'The request is invalid: header.x-trace Too big.',
      code: 'validation_failed',
      errors,
    };
    return c.json(problem, 400, { 'content-type': 'application/problem+json' });
  });
  const api = createToolDispatcher({ tools: [thing], fetch: async (req) => strict.fetch(req), validation: 'api' });

  it('sends values the schema refuses to the API and names its field errors by tool argument', async () => {
    const result = await api.call(
      'update_thing',
      { id: '1', sub: 's', size: 0, tag: ['a', 2], trace: ['t'] },
      undefined,
    );
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^400 Bad Request: Invalid arguments for update_thing: `trace` Too big \(too_big\); `tag\[1\]` Expected string \(invalid_type\); `size` Too small \(too_small\)\. Fix them and call update_thing again\./,
    );
  });

  it.each([
    [{ sub: 's' }, '`id` is required'],
    [{ id: '', sub: 's' }, '`id` must be a non-empty string'],
    [{ id: '1', sub: 's', color: 'red' }, '`color` is not a known argument'],
  ])('refuses %j before any request, naming the argument', async (args, message) => {
    const result = await api.call('update_thing', args, undefined);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe(
      `Invalid arguments for update_thing: ${message}. Fix them and call update_thing again.`,
    );
  });
});

describe('createToolDispatcher results', () => {
  const shapes = new Hono();
  shapes.get('/list', (c) => c.json([1, 2, 3]));
  shapes.get('/text', (c) => c.text('upstream exploded', 502));
  shapes.get('/big', (c) => c.json({ data: 'é'.repeat(3_000) }));
  const get = (name: string, path: string, outputSchema?: ToolDescriptor['outputSchema']) =>
    tool({ name, outputSchema, binding: { operationId: name, method: 'GET', path, body: 'none', args: [] } });
  const shaped = createToolDispatcher({
    tools: [get('list', '/list', { type: 'object' }), get('text', '/text'), get('big', '/big', { type: 'object' })],
    fetch: async (req) => shapes.fetch(req),
    resultCapBytes: 2_000,
  });

  it('returns a non-object JSON body as text only', async () => {
    const result = await shaped.call('list', {}, undefined);
    expect(result).toEqual({ content: [{ type: 'text', text: '[1,2,3]' }] });
  });

  it('reports a non-problem error response with its status and body', async () => {
    const result = await shaped.call('text', {}, undefined);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe('502 Bad Gateway\n\nupstream exploded');
  });

  it('cuts multi-byte text on a character boundary within the cap', async () => {
    const result = await shaped.call('big', {}, undefined);
    const text = (result.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000);
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain('narrow the request');
    expect(result.structuredContent).toBeUndefined();
  });

  it('takes the body text from responseText when the app already holds it', async () => {
    const unread = new Response(new ReadableStream({ pull: (c) => c.error(new Error('must not be read')) }), {
      headers: { 'content-type': 'application/json' },
    });
    const held = createToolDispatcher({
      tools: [get('big', '/big', { type: 'object' })],
      fetch: async () => unread,
      responseText: (response) => (response === unread ? '{"held":true}' : undefined),
    });
    expect((await held.call('big', {}, undefined)).structuredContent).toEqual({ held: true });
  });

  it('returns an isError result when the API cannot be reached', async () => {
    const offline = createToolDispatcher({
      tools: [get('text', '/text')],
      fetch: () => Promise.reject(new Error('connect ECONNREFUSED')),
    });
    const result = await offline.call('text', {}, undefined);
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('(connect ECONNREFUSED)') }],
    });
  });
});

describe('createToolDispatcher configuration', () => {
  const fetch = async () => new Response();
  it.each([
    [
      'a header argument named Authorization',
      [
        tool({
          name: 'x',
          binding: {
            operationId: 'x',
            method: 'GET',
            path: '/x',
            body: 'none',
            args: [{ name: 'a', in: 'header', key: 'Authorization' }],
          },
        }),
      ],
    ],
    [
      'a path parameter without an argument',
      [tool({ name: 'x', binding: { operationId: 'x', method: 'GET', path: '/x/{id}', body: 'none', args: [] } })],
    ],
    [
      'a path argument the schema does not require',
      [
        tool({
          name: 'x',
          inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
          binding: {
            operationId: 'x',
            method: 'GET',
            path: '/x/{id}',
            body: 'none',
            args: [{ name: 'id', in: 'path', key: 'id' }],
          },
        }),
      ],
    ],
    ['a duplicate tool name', [csv, csv]],
  ])('throws at creation for %s', (_name, tools) => {
    expect(() => createToolDispatcher({ tools, fetch })).toThrow();
  });
});
