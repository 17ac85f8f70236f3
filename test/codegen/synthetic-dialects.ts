// Synthetic documents for dialect details (3.0 and 3.1) and for every parameter location and media type.
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { doc31, json, ok, ref } from './synthetic-builders.ts';

/** OpenAPI 3.0 dialect: nullable, boolean exclusive bounds, example, discriminator, parameter defaults of the wrong type. */
export function openapi30(): JsonObject {
  return {
    openapi: '3.0.3',
    info: { title: 'dialect 3.0', version: '1' },
    paths: {
      '/items/{id}': {
        get: {
          operationId: 'getItem',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true },
            },
            { name: 'page', in: 'query', schema: { type: 'integer', default: '1' } },
            { name: 'flag', in: 'query', schema: { type: 'boolean', default: 'true' } },
            { name: 'mode', in: 'query', schema: { type: 'string', enum: ['a', 'b'], default: 'c' } },
            {
              name: 'ids',
              in: 'query',
              style: 'form',
              explode: false,
              schema: { type: 'array', items: { type: 'integer' } },
            },
            {
              name: 'when',
              in: 'query',
              schema: { type: 'string', format: 'date-time', nullable: true, example: '2020-01-01T00:00:00Z' },
            },
          ],
          responses: ok(ref('Item')),
        },
      },
      '/pets': {
        post: {
          operationId: 'createPet',
          requestBody: { required: true, ...json(ref('Pet')) },
          responses: ok(ref('Pet')),
        },
      },
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'integer', minimum: 1, maximum: 10, exclusiveMaximum: true, example: 5 },
            note: { type: 'string', nullable: true, example: 'hello', 'x-internal': true },
            tags: { type: 'array', nullable: true },
            status: { type: 'string', enum: ['on', 'off'], nullable: true },
            mystery: { nullable: true, description: 'no type at all' },
            file: { type: 'string', format: 'binary' },
            ratio: { type: 'number', format: 'percent', minimum: 0 },
            legacy: { type: 'string', pattern: '(?<!x)y' },
            bad_regex: { type: 'string', pattern: '[' },
          },
          xml: { name: 'item' },
          externalDocs: { url: 'https://example.com' },
        },
        Pet: {
          type: 'object',
          required: ['kind'],
          discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
          properties: { kind: { type: 'string' } },
          oneOf: [ref('Cat'), ref('Dog')],
        },
        Cat: { type: 'object', properties: { kind: { type: 'string' }, purrs: { type: 'boolean' } } },
        Dog: {
          allOf: [{ type: 'object', properties: { kind: { type: 'string' } } }],
          properties: { barks: { type: 'boolean' } },
          required: ['barks'],
        },
      },
    },
  };
}

/** OpenAPI 3.1 dialect: type arrays, const, $ref with siblings, prefixItems, boolean schemas, $defs, conditionals. */
export function openapi31(): JsonObject {
  const schemas: JsonObject = {
    Money: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: ['number', 'string'] }, currency: { const: 'EUR' } },
    },
    Point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 },
    Anything: true,
    Nothing: false,
    WithDefs: {
      $defs: { Inner: { type: 'string', minLength: 2 } },
      type: 'object',
      properties: { inner: { $ref: '#/components/schemas/WithDefs/$defs/Inner' } },
    },
    Conditional: {
      type: 'object',
      properties: { kind: { type: 'string' }, size: { type: 'integer' } },
      if: { properties: { kind: { const: 'big' } } },
      then: { required: ['size'] },
      else: true,
      dependentRequired: { size: ['kind'] },
      patternProperties: { '^x-': { type: 'string' } },
      propertyNames: { maxLength: 20 },
      unevaluatedProperties: false,
    },
    Tuple: { type: ['array', 'null'], prefixItems: [{ type: 'string' }], items: false },
    Unknownish: {
      type: 'object',
      properties: {
        a: { type: 'string', collectionFormat: 'csv', 'x-nullable': true, examples: ['x'] },
        b: { type: 'file' },
        c: { type: 'integer', minimum: '3' },
      },
    },
  };
  return doc31(
    {
      '/money': {
        post: {
          operationId: 'postMoney',
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              properties: {
                price: { $ref: '#/components/schemas/Money', description: 'The price, described beside the $ref.' },
                where: ref('Point'),
                any: ref('Anything'),
                none: ref('Nothing'),
                defs: ref('WithDefs'),
              },
            }),
          },
          responses: ok({ type: ['object', 'null'], properties: { ok: { type: 'boolean' } } }),
        },
      },
      '/conditional': {
        put: {
          operationId: 'putConditional',
          requestBody: json(ref('Conditional')),
          responses: ok(ref('Conditional')),
        },
      },
      '/tuple': {
        patch: {
          operationId: 'patchTuple',
          requestBody: json({ type: 'object', properties: { t: ref('Tuple'), u: ref('Unknownish') } }),
          responses: ok(ref('Tuple')),
        },
      },
    },
    schemas,
    { webhooks: { ping: { post: { requestBody: json(ref('Money')), responses: { '200': { description: 'ok' } } } } } },
  );
}

/** Parameters and bodies in every location and media type, colliding names, the Authorization header, odd responses. */
export function locationsAndMedia(): JsonObject {
  const idPath = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  return doc31(
    {
      '/things/{id}': {
        parameters: [idPath, { name: 'trace', in: 'header', schema: { type: 'string' } }],
        patch: {
          operationId: 'patchThing',
          parameters: [
            { name: 'id', in: 'query', schema: { type: 'string' } },
            { name: 'Authorization', in: 'header', required: true, schema: { type: 'string' } },
            { name: 'AUTHORIZATION', in: 'header', schema: { type: 'string' } },
            { name: 'X-Id', in: 'header', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
            {
              name: 'filter',
              in: 'query',
              content: { 'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
            },
            { name: 'noschema', in: 'query' },
            { name: 'StartTime<', in: 'query', schema: { type: 'string' } },
            { name: 'StartTime>', in: 'query', schema: { type: 'string' } },
            { name: 'StartTime', in: 'query', schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['id'],
              properties: { id: { type: 'integer' }, body_id: { type: 'string' }, name: { type: 'string' } },
            }),
          },
          responses: {
            default: { description: 'anything', ...json({ type: 'object', properties: { ok: { type: 'boolean' } } }) },
          },
        },
      },
      '/ranges': {
        get: {
          operationId: 'ranges',
          responses: {
            '2XX': { description: 'ok', ...json({ type: 'object', properties: { a: { type: 'string' } } }) },
            '4XX': { description: 'client', ...json({ type: 'string' }) },
            '5XX': { description: 'server' },
          },
        },
        delete: { operationId: 'onlyDefault', responses: { default: { description: 'whatever' } } },
      },
      '/media/text': {
        post: {
          operationId: 'postText',
          requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } } } },
          responses: { '200': { description: 'text', content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
      '/media/form': {
        post: {
          operationId: 'postForm',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: { To: { type: 'string' }, Body: { type: 'string' } },
                  required: ['To'],
                },
              },
            },
          },
          responses: ok({ type: 'object' }),
        },
      },
      '/media/multipart': {
        post: {
          operationId: 'postMultipart',
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } },
                },
              },
            },
          },
          responses: ok({}),
        },
      },
      '/media/binary': {
        put: {
          operationId: 'putBinary',
          requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: { '200': { description: 'bytes', content: { 'application/octet-stream': {} } } },
        },
      },
      '/media/nocontent': {
        post: {
          operationId: 'postNoSchema',
          requestBody: { content: { 'application/json': {} } },
          responses: { '200': { description: 'no schema', content: { 'application/json': {} } } },
        },
      },
      '/bodies/array': {
        post: {
          operationId: 'postArray',
          requestBody: { required: true, ...json({ type: 'array', items: { type: 'string' } }) },
          responses: ok({ type: 'array', items: { type: 'string' } }),
        },
      },
      '/bodies/oneof': {
        post: {
          operationId: 'postOneOf',
          requestBody: {
            required: true,
            ...json({
              oneOf: [
                { type: 'object', properties: { a: { type: 'string' } } },
                { type: 'object', properties: { b: { type: 'string' } } },
              ],
            }),
          },
          responses: ok({ anyOf: [{ type: 'object' }, { type: 'string' }] }),
        },
      },
      '/bodies/map': {
        post: {
          operationId: 'postMap',
          requestBody: json({ type: 'object', additionalProperties: { type: 'integer' } }),
          responses: ok({ type: 'object', additionalProperties: true }),
        },
      },
      '/bodies/empty': { post: { operationId: 'postEmpty', requestBody: json({}), responses: ok({}) } },
      '/bodies/allof-plus-own': {
        post: {
          operationId: 'postAllOfPlusOwn',
          requestBody: {
            required: true,
            ...json({
              allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }],
              properties: { own: { type: 'string' } },
              required: ['own'],
            }),
          },
          responses: ok({}),
        },
      },
      '/undeclared/{thing}/{other}': {
        get: {
          operationId: 'undeclaredPathParams',
          parameters: [{ name: 'other', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: ok({ type: 'object' }),
        },
      },
      '/bodies/ref': {
        post: {
          operationId: 'postRefBody',
          parameters: [{ $ref: '#/components/parameters/Limit' }],
          requestBody: { $ref: '#/components/requestBodies/Thing' },
          responses: { '200': { $ref: '#/components/responses/Thing' } },
        },
      },
    },
    {},
    {
      components: {
        schemas: {
          Thing: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, limit: { type: 'integer' } },
          },
        },
        parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
        requestBodies: { Thing: { required: true, ...json(ref('Thing')) } },
        responses: { Thing: { description: 'a thing', ...json(ref('Thing')) } },
      },
    },
  );
}

/** A 3.1 document with webhooks and no paths at all: nothing to serve, and every file must still compile. */
export function webhooksOnly(): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 'events', version: '1' },
    webhooks: {
      created: { post: { requestBody: json({ type: 'object' }), responses: { '200': { description: 'ok' } } } },
    },
  };
}
