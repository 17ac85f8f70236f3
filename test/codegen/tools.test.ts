import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { buildDescriptor, type Descriptor } from '../../scripts/codegen/tools.ts';

const ok = { '200': { description: 'ok' } };
const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
const param = (name: string, location: string, schema: Json = { type: 'string' }, required = location === 'path') => ({
  name,
  in: location,
  required,
  schema,
});

/** The one tool of a one-operation document. */
function tool(
  operation: JsonObject,
  options: { method?: string; path?: string; schemas?: JsonObject; manifest?: JsonObject } = {},
): Descriptor {
  const doc: JsonObject = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      [options.path ?? '/things/{id}']: {
        [options.method ?? 'post']: { operationId: 'op', responses: ok, ...operation },
      },
    },
    components: { schemas: options.schemas ?? {} },
  };
  const [op] = buildModel({ doc, text: '', version: '3.1' }).operations;
  return buildDescriptor(doc, { op, override: options.manifest ?? {}, name: 'op' }).descriptor;
}

const args = (d: Descriptor) => d.binding.args.map((a) => `${a.name}<-${a.in}:${a.key}`);

describe('inputSchema', () => {
  const cases: Array<[string, { given: JsonObject; want: { args: string[]; required?: string[]; body: string } }]> = [
    [
      'merges path, query, header and body fields into one object',
      {
        given: {
          parameters: [param('id', 'path'), param('limit', 'query', { type: 'integer' }), param('X-Trace', 'header')],
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, note: { type: 'string' } },
            }),
          },
        },
        want: {
          args: ['id<-path:id', 'limit<-query:limit', 'x_trace<-header:X-Trace', 'name<-body:name', 'note<-body:note'],
          required: ['id', 'name'],
          body: 'merged',
        },
      },
    ],
    [
      'renames a body field that collides with a path parameter',
      {
        given: {
          parameters: [param('id', 'path')],
          requestBody: json({ type: 'object', properties: { id: { type: 'string' } } }),
        },
        want: { args: ['id<-path:id', 'body_id<-body:id'], required: ['id'], body: 'merged' },
      },
    ],
    [
      'renames a query parameter that collides with a path parameter',
      {
        given: { parameters: [param('id', 'path'), param('id', 'query')] },
        want: { args: ['id<-path:id', 'query_id<-query:id'], required: ['id'], body: 'none' },
      },
    ],
    [
      'renames again when the renamed name is taken too',
      {
        given: {
          parameters: [param('id', 'path')],
          requestBody: json({ type: 'object', properties: { id: { type: 'string' }, body_id: { type: 'string' } } }),
        },
        want: {
          args: ['id<-path:id', 'body_id<-body:id', 'body_body_id<-body:body_id'],
          required: ['id'],
          body: 'merged',
        },
      },
    ],
    [
      'names comparison parameters apart and records their keys',
      {
        given: {
          parameters: [
            param('id', 'path'),
            param('StartTime<', 'query'),
            param('StartTime>', 'query'),
            param('StartTime', 'query'),
          ],
        },
        want: {
          args: [
            'id<-path:id',
            'StartTime_lt<-query:StartTime<',
            'StartTime_gt<-query:StartTime>',
            'StartTime<-query:StartTime',
          ],
          required: ['id'],
          body: 'none',
        },
      },
    ],
    [
      'leaves out the Authorization header in any spelling, cookies and content negotiation headers',
      {
        given: {
          parameters: [
            param('id', 'path'),
            param('Authorization', 'header', { type: 'string' }, true),
            param('AUTHORIZATION', 'header'),
            param('content-type', 'header'),
            param('Accept', 'header'),
            param('session', 'cookie'),
          ],
        },
        want: { args: ['id<-path:id'], required: ['id'], body: 'none' },
      },
    ],
    [
      'keeps a header that only contains the word authorization',
      {
        given: { parameters: [param('id', 'path'), param('X-Authorization-Context', 'header')] },
        want: {
          args: ['id<-path:id', 'x_authorization_context<-header:X-Authorization-Context'],
          required: ['id'],
          body: 'none',
        },
      },
    ],
    [
      'sends an array body whole under one argument',
      {
        given: { requestBody: { required: true, ...json({ type: 'array', items: { type: 'string' } }) } },
        want: { args: ['id<-path:id', 'body<-body:'], required: ['id', 'body'], body: 'whole' },
      },
    ],
    [
      'sends a oneOf body whole',
      {
        given: {
          requestBody: json({ oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }] }),
        },
        want: { args: ['id<-path:id', 'body<-body:'], required: ['id'], body: 'whole' },
      },
    ],
    [
      'sends a map body whole',
      {
        given: { requestBody: json({ type: 'object', additionalProperties: { type: 'integer' } }) },
        want: { args: ['id<-path:id', 'body<-body:'], required: ['id'], body: 'whole' },
      },
    ],
    [
      'sends an empty-schema body whole',
      {
        given: { requestBody: json({}) },
        want: { args: ['id<-path:id', 'body<-body:'], required: ['id'], body: 'whole' },
      },
    ],
    [
      'renames a whole body whose name a parameter took',
      {
        given: { parameters: [param('body', 'query')], requestBody: json({ type: 'string' }) },
        want: { args: ['id<-path:id', 'body<-query:body', 'body_body<-body:'], required: ['id'], body: 'whole' },
      },
    ],
    [
      'merges a closed object body (additionalProperties: false)',
      {
        given: {
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              additionalProperties: false,
              required: ['a'],
              properties: { a: { type: 'string' } },
            }),
          },
        },
        want: { args: ['id<-path:id', 'a<-body:a'], required: ['id', 'a'], body: 'merged' },
      },
    ],
    [
      'merges allOf parts and the properties beside them',
      {
        given: {
          requestBody: {
            required: true,
            ...json({
              allOf: [{ $ref: '#/components/schemas/Base' }, { required: ['b'] }],
              properties: { c: { type: 'string' } },
            }),
          },
        },
        want: {
          args: ['id<-path:id', 'a<-body:a', 'b<-body:b', 'c<-body:c'],
          required: ['id', 'a', 'b'],
          body: 'merged',
        },
      },
    ],
    [
      'makes no body field required when the body is optional',
      {
        given: {
          requestBody: {
            required: false,
            ...json({ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }),
          },
        },
        want: { args: ['id<-path:id', 'a<-body:a'], required: ['id'], body: 'merged' },
      },
    ],
    [
      'leaves out readOnly body fields',
      {
        given: {
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['id', 'name'],
              properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
            }),
          },
        },
        want: { args: ['id<-path:id', 'name<-body:name'], required: ['id', 'name'], body: 'merged' },
      },
    ],
    [
      'reads a parameter declared with content instead of schema',
      {
        given: {
          parameters: [
            {
              name: 'filter',
              in: 'query',
              content: { 'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
            },
          ],
        },
        want: { args: ['id<-path:id', 'filter<-query:filter'], required: ['id'], body: 'none' },
      },
    ],
    [
      'merges a form-encoded body',
      {
        given: {
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: { To: { type: 'string' } } },
              },
            },
          },
        },
        want: { args: ['id<-path:id', 'To<-body:To'], required: ['id'], body: 'merged' },
      },
    ],
    [
      'sends a text/plain body whole',
      {
        given: { requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } } },
        want: { args: ['id<-path:id', 'body<-body:'], required: ['id'], body: 'whole' },
      },
    ],
  ];
  const schemas = {
    Base: { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } },
  };
  it.each(cases)('%s', (_, { given, want }) => {
    const d = tool(given, { schemas });
    expect(args(d)).toEqual(want.args);
    expect(d.inputSchema.required).toEqual(want.required);
    expect(d.binding.body).toBe(want.body);
    expect(Object.keys(d.inputSchema.properties as JsonObject)).toEqual(d.binding.args.map((a) => a.name));
    expect(d.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(JSON.stringify(d.inputSchema)).not.toMatch(/"authorization"/i);
  });

  it('records the body media type in the binding', () => {
    expect(
      tool({
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
            },
          },
        },
      }).binding,
    ).toMatchObject({ contentType: 'multipart/form-data', body: 'merged' });
  });

  it('keeps descriptions, formats and defaults in the arguments', () => {
    const d = tool({
      requestBody: json({
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time', description: 'When.' },
          n: { type: 'integer', default: 1 },
        },
      }),
    });
    expect(d.inputSchema.properties).toMatchObject({
      at: { type: 'string', format: 'date-time', description: 'When.' },
      n: { type: 'integer', default: 1 },
    });
  });

  it('carries a parameter description into its argument schema', () => {
    const d = tool({ parameters: [{ ...param('id', 'path'), description: 'The thing.' }] });
    expect((d.inputSchema.properties as JsonObject).id).toEqual({ type: 'string', description: 'The thing.' });
  });
});

describe('annotations', () => {
  const cases: Array<[string, { given: { method: string; manifest?: JsonObject }; want: JsonObject }]> = [
    ['marks GET read-only', { given: { method: 'get' }, want: { readOnlyHint: true } }],
    [
      'marks DELETE destructive and idempotent',
      { given: { method: 'delete' }, want: { readOnlyHint: false, destructiveHint: true, idempotentHint: true } },
    ],
    ['marks PUT idempotent', { given: { method: 'put' }, want: { readOnlyHint: false, idempotentHint: true } }],
    ['marks POST as writing only', { given: { method: 'post' }, want: { readOnlyHint: false } }],
    ['marks PATCH as writing only', { given: { method: 'patch' }, want: { readOnlyHint: false } }],
    [
      'lets the manifest override a hint',
      {
        given: { method: 'delete', manifest: { annotations: { destructiveHint: false } } },
        want: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      },
    ],
    [
      'lets the manifest add a hint',
      {
        given: { method: 'post', manifest: { annotations: { idempotentHint: true, openWorldHint: false } } },
        want: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(tool({}, { method: given.method, manifest: given.manifest }).annotations).toEqual(want);
  });
});

describe('outputSchema', () => {
  const object = { type: 'object', properties: { a: { type: 'string' } } };
  const cases: Array<[string, { given: JsonObject; want: JsonObject | undefined }]> = [
    [
      'is the success body when it is an object',
      { given: { '200': { description: 'ok', ...json(object) } }, want: object },
    ],
    [
      'takes the first 2xx response',
      {
        given: {
          '201': { description: 'created', ...json(object) },
          '400': { description: 'bad', ...json({ type: 'object' }) },
        },
        want: object,
      },
    ],
    ['reads a 2XX range', { given: { '2XX': { description: 'ok', ...json(object) } }, want: object }],
    [
      'merges an allOf of objects',
      {
        given: {
          '200': {
            description: 'ok',
            ...json({ allOf: [object, { type: 'object', properties: { b: { type: 'integer' } } }] }),
          },
        },
        want: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      },
    ],
    [
      'leaves out writeOnly properties',
      {
        given: {
          '200': {
            description: 'ok',
            ...json({
              type: 'object',
              properties: { a: { type: 'string' }, secret: { type: 'string', writeOnly: true } },
            }),
          },
        },
        want: object,
      },
    ],
    [
      'is absent for an array body',
      { given: { '200': { description: 'ok', ...json({ type: 'array', items: object }) } }, want: undefined },
    ],
    [
      'is absent for a string body',
      {
        given: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } } },
        want: undefined,
      },
    ],
    [
      'is absent for a oneOf body',
      { given: { '200': { description: 'ok', ...json({ oneOf: [object, { type: 'string' }] }) } }, want: undefined },
    ],
    [
      'is absent for a nullable object',
      { given: { '200': { description: 'ok', ...json({ ...object, type: ['object', 'null'] }) } }, want: undefined },
    ],
    ['is absent without a body', { given: { '204': { description: 'no content' } }, want: undefined }],
    [
      'is absent with only a default response',
      { given: { default: { description: 'any', ...json(object) } }, want: undefined },
    ],
    [
      'is absent when two success responses have different bodies (200 done, 202 accepted)',
      {
        given: {
          '200': { description: 'done', ...json(object) },
          '202': { description: 'accepted', ...json({ type: 'object', properties: { id: { type: 'string' } } }) },
        },
        want: undefined,
      },
    ],
    [
      'is kept when two success responses share one body',
      {
        given: { '200': { description: 'ok', ...json(object) }, '201': { description: 'created', ...json(object) } },
        want: object,
      },
    ],
    [
      'leaves out annotations, bounds and required, keeps properties, types and enums',
      {
        given: {
          '200': {
            description: 'ok',
            ...json({
              type: 'object',
              description: 'A thing.',
              required: ['at', 'state'],
              properties: {
                at: { type: 'string', format: 'date-time', description: 'When.', maxLength: 40 },
                state: { type: 'string', enum: ['on', 'off'], default: 'on' },
              },
            }),
          },
        },
        want: {
          type: 'object',
          properties: { at: { type: 'string' }, state: { type: 'string', enum: ['on', 'off'] } },
        },
      },
    ],
    [
      'writes a nullable property as a type list',
      {
        given: {
          '200': {
            description: 'ok',
            ...json({ type: 'object', properties: { at: { type: 'string', nullable: true } } }),
          },
        },
        want: { type: 'object', properties: { at: { type: ['string', 'null'] } } },
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(tool({ responses: given }).outputSchema).toEqual(want);
  });
});
