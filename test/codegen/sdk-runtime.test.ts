// The SDK runtime template (copied into src/generated/sdk-runtime.ts): how flat arguments become a request for
// each body media type, with an injected fetch that records the request instead of sending it.
import { describe, expect, it } from 'vitest';
import { createRuntime, type OperationBinding } from '../../scripts/codegen/templates/sdk-runtime.ts';

async function send(binding: Partial<OperationBinding>, args: Record<string, unknown>): Promise<Request> {
  let seen: Request | undefined;
  const runtime = createRuntime<Record<string, never>>({
    baseUrl: 'http://api.test',
    credential: 'secret',
    fetch: async (request) => {
      seen = request;
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  await runtime.call(
    { operationId: 'op', method: 'POST', path: '/things/{id}', body: 'merged', args: [], ...binding },
    args,
  );
  return seen!;
}

describe('sdk runtime request bodies', () => {
  const bodyArgs = [
    { name: 'id', in: 'path' as const, key: 'id' },
    { name: 'To', in: 'body' as const, key: 'To' },
    { name: 'Tags', in: 'body' as const, key: 'Tags' },
  ];
  const cases: Array<
    [
      string,
      {
        given: Partial<OperationBinding>;
        args: Record<string, unknown>;
        want: { type: RegExp; body: string | RegExp };
      },
    ]
  > = [
    [
      'writes JSON by default',
      {
        given: { contentType: 'application/json', args: bodyArgs },
        args: { id: '1', To: 'a', Tags: ['x'] },
        want: { type: /^application\/json$/, body: '{"To":"a","Tags":["x"]}' },
      },
    ],
    [
      'writes +json types as JSON',
      {
        given: { contentType: 'application/merge-patch+json', args: bodyArgs },
        args: { id: '1', To: 'a' },
        want: { type: /^application\/json$/, body: '{"To":"a"}' },
      },
    ],
    [
      'form-encodes, repeating array fields',
      {
        given: { contentType: 'application/x-www-form-urlencoded', args: bodyArgs },
        args: { id: '1', To: 'a b', Tags: ['x', 'y'] },
        want: { type: /^application\/x-www-form-urlencoded/, body: 'To=a+b&Tags=x&Tags=y' },
      },
    ],
    [
      'writes multipart with a boundary',
      {
        given: { contentType: 'multipart/form-data', args: bodyArgs },
        args: { id: '1', To: 'a' },
        want: { type: /^multipart\/form-data; boundary=/, body: /name="To"\r\n\r\na\r\n/ },
      },
    ],
    [
      'sends a text body as it is',
      {
        given: { contentType: 'text/plain', body: 'whole', args: [{ name: 'body', in: 'body', key: '' }] },
        args: { body: 'hello' },
        want: { type: /^text\/plain$/, body: 'hello' },
      },
    ],
    [
      'sends a JSON-like value to a non-JSON type as JSON text',
      {
        given: { contentType: 'application/xml', body: 'whole', args: [{ name: 'body', in: 'body', key: '' }] },
        args: { body: { a: 1 } },
        want: { type: /^application\/xml$/, body: '{"a":1}' },
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, args, want }) => {
    const request = await send(given, args);
    expect(request.headers.get('content-type')).toMatch(want.type);
    const text = await request.text();
    if (typeof want.body === 'string') expect(text).toBe(want.body);
    else expect(text).toMatch(want.body);
  });

  it('fills path parameters and sends the bearer credential', async () => {
    const request = await send({ args: [{ name: 'id', in: 'path', key: 'id' }], body: 'none' }, { id: 'a b' });
    expect(request.url).toBe('http://api.test/things/a%20b');
    expect(request.headers.get('authorization')).toBe('Bearer secret');
  });

  it('sends a renamed argument under its real key', async () => {
    const request = await send(
      {
        method: 'GET',
        body: 'none',
        args: [
          { name: 'id', in: 'path', key: 'id' },
          { name: 'StartTime_lt', in: 'query', key: 'StartTime<' },
        ],
      },
      { id: '1', StartTime_lt: '2024' },
    );
    expect(new URL(request.url).searchParams.get('StartTime<')).toBe('2024');
  });
});

describe('sdk runtime responses', () => {
  async function answer(
    binding: Partial<OperationBinding>,
    response: Response,
  ): Promise<{ result: unknown; request: Request }> {
    let request: Request | undefined;
    const runtime = createRuntime<Record<string, never>>({
      baseUrl: 'http://api.test',
      fetch: async (r) => {
        request = r;
        return response;
      },
    });
    const result = await runtime.call(
      { operationId: 'op', method: 'GET', path: '/x', body: 'none', args: [], ...binding },
      {},
    );
    return { result, request: request! };
  }
  const csv = () => new Response('a,b\n1,2\n', { headers: { 'content-type': 'text/csv' } });
  const found = () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/done' } });

  const cases: Array<[string, { given: Partial<OperationBinding>; response: () => Response; want: unknown }]> = [
    ['reads a text body as text', { given: { parseAs: 'text' }, response: csv, want: 'a,b\n1,2\n' }],
    [
      'returns a declared redirect with its status and Location',
      {
        given: { redirect: 'manual' },
        response: found,
        want: { redirect: true, status: 302, location: 'https://elsewhere.test/done' },
      },
    ],
    [
      'returns a page when a redirecting operation answers 200',
      {
        given: { parseAs: 'text', redirect: 'manual' },
        response: () => new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } }),
        want: '<p>hi</p>',
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, response, want }) => {
    expect((await answer(given, response())).result).toEqual(want);
  });

  it('asks fetch not to follow redirects for an operation that declares one', async () => {
    expect((await answer({ redirect: 'manual' }, found())).request.redirect).toBe('manual');
    expect((await answer({ parseAs: 'text' }, csv())).request.redirect).toBe('follow');
  });

  it('throws on a redirect the operation does not declare', async () => {
    await expect(answer({}, found())).rejects.toThrow(/^302 /);
  });
});
