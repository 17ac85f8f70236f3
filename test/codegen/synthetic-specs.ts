// Synthetic OpenAPI documents built in code: larger and stranger than the shared real ones, each aimed at one
// way a generator breaks (size, recursion, odd names, external files; dialects and media types are in
// synthetic-dialects.ts; the shapes of the optional real corpus in synthetic-real-shapes.ts). `hardSpecs` lists
// the one-file documents.
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { doc31, json, ok, ref } from './synthetic-builders.ts';
import { locationsAndMedia, openapi30, openapi31, webhooksOnly } from './synthetic-dialects.ts';
import { inlineThreeOne, noOperationIds, versionedJsonPaths } from './synthetic-real-shapes.ts';
import { recursiveGroup } from './synthetic-recursive-group.ts';

/** `resources * 4` operations (list, create, read, replace, delete on 2 paths), each resource with its own schemas. */
export function manyOperations(resources: number): JsonObject {
  const paths: JsonObject = {};
  const schemas: JsonObject = {
    Meta: {
      type: 'object',
      properties: {
        created_at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    Problem: {
      type: 'object',
      required: ['title', 'status'],
      properties: { title: { type: 'string' }, status: { type: 'integer' } },
    },
  };
  const problem = { description: 'problem', content: { 'application/problem+json': { schema: ref('Problem') } } };
  for (let i = 0; i < resources; i++) {
    const name = `Resource${i}`;
    schemas[name] = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', readOnly: true },
        name: { type: 'string', minLength: 1, maxLength: 200 },
        size: { type: 'integer', minimum: 0 },
        kind: { type: 'string', enum: ['a', 'b', 'c'] },
        meta: ref('Meta'),
        parent: i > 0 ? ref(`Resource${i - 1}Ref`) : { type: 'string' },
      },
    };
    schemas[`${name}Ref`] = { type: 'object', properties: { id: { type: 'string' } } };
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    const limit = { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } };
    paths[`/v1/resources-${i}`] = {
      get: {
        operationId: `list_resource_${i}`,
        parameters: [limit],
        responses: {
          ...ok({
            type: 'object',
            properties: { data: { type: 'array', items: ref(name) }, has_more: { type: 'boolean' } },
          }),
          '400': problem,
        },
      },
      post: {
        operationId: `create_resource_${i}`,
        requestBody: { required: true, ...json(ref(name)) },
        responses: { '201': { description: 'created', ...json(ref(name)) }, '400': problem },
      },
    };
    paths[`/v1/resources-${i}/{id}`] = {
      parameters: [id],
      put: {
        operationId: `replace_resource_${i}`,
        requestBody: { required: true, ...json(ref(name)) },
        responses: { ...ok(ref(name)), '404': problem },
      },
      delete: { operationId: `delete_resource_${i}`, responses: { '204': { description: 'deleted' }, '404': problem } },
    };
  }
  return doc31(paths, schemas);
}

/** Self-recursive objects and arrays, a three-schema cycle, and recursion through allOf, oneOf and additionalProperties. */
export function recursiveSchemas(): JsonObject {
  const schemas: JsonObject = {
    Node: {
      type: 'object',
      properties: { name: { type: 'string' }, parent: ref('Node'), children: { type: 'array', items: ref('Node') } },
    },
    Tree: { type: 'array', items: ref('Tree') },
    A: { type: 'object', properties: { b: ref('B') } },
    B: { type: 'object', properties: { c: ref('C'), list: { type: 'array', items: ref('A') } } },
    C: { type: 'object', required: ['a'], properties: { a: ref('A') } },
    Base: { type: 'object', properties: { id: { type: 'string' } } },
    Linked: { allOf: [ref('Base'), { type: 'object', properties: { next: ref('Linked') } }] },
    Expr: {
      oneOf: [
        { type: 'number' },
        {
          type: 'object',
          required: ['op'],
          properties: { op: { type: 'string' }, args: { type: 'array', items: ref('Expr') } },
        },
      ],
    },
    Dict: { type: 'object', additionalProperties: ref('Dict') },
    ViaPointer: { type: 'object', properties: { kids: ref('Node/properties/children') } },
    Deep1: { type: 'object', properties: { d: ref('Deep2') } },
    Deep2: { type: 'object', properties: { d: ref('Deep3') } },
    Deep3: { type: 'object', properties: { d: ref('Deep4') } },
    Deep4: { type: 'object', properties: { d: ref('Deep5') } },
    Deep5: { type: 'object', properties: { d: ref('Deep6') } },
    Deep6: { type: 'object', properties: { d: ref('Deep7') } },
    Deep7: { type: 'object', properties: { d: ref('Deep8') } },
    Deep8: { type: 'object', properties: { leaf: { type: 'string' } } },
  };
  const paths: JsonObject = {};
  for (const name of Object.keys(schemas)) {
    paths[`/${name.toLowerCase()}`] = {
      post: {
        operationId: `post${name}`,
        requestBody: { required: true, ...json(ref(name)) },
        responses: ok(ref(name)),
      },
      get: {
        operationId: `get${name}`,
        parameters: [{ name: 'filter', in: 'query', schema: ref(name) }],
        responses: ok({ type: 'object', properties: { item: ref(name) } }),
      },
    };
  }
  return doc31(paths, schemas);
}

const empty = { responses: { '204': { description: 'no content' } } };

/** Operation ids and paths with characters that break naive identifiers, tool names and string literals. */
export function oddNames(): JsonObject {
  const paths: JsonObject = {
    '/users/{id}.json': {
      get: {
        operationId: 'get user',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        ...empty,
      },
    },
    '/users/{name}.xml': {
      get: {
        operationId: 'get.user',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        ...empty,
      },
    },
    '/users/{id}': {
      get: {
        operationId: 'get_user',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        ...empty,
      },
    },
    '/über/straße': {
      get: { operationId: 'getÜberStraße', ...empty },
      post: { operationId: '日本語', ...empty },
      put: { operationId: 'Ελληνικά', ...empty },
    },
    '/tilde~/50%/a b': { get: { ...empty }, post: { operationId: 'has space and.dot', ...empty } },
    '/quote\'and"backslash\\': { get: { operationId: 'quote', ...empty } },
    '/dup/one': { get: { operationId: 'duplicate', ...empty } },
    '/dup/two': { get: { operationId: 'duplicate', ...empty } },
    '/case/a': { get: { operationId: 'getFoo', ...empty } },
    '/case/b': { get: { operationId: 'GetFoo', ...empty } },
    '/case/c': { get: { operationId: 'get_foo', ...empty } },
    '/reserved/a': {
      get: { operationId: 'delete', ...empty },
      post: { operationId: 'class', ...empty },
      put: { operationId: '__proto__', ...empty },
    },
    '/reserved/b': {
      get: { operationId: 'constructor', ...empty },
      post: { operationId: 'raw', ...empty },
      put: { operationId: 'toString', ...empty },
    },
    '/reserved/c': {
      get: { operationId: '123start', ...empty },
      post: { operationId: '---', ...empty },
      put: { operationId: 'ops$dollar', ...empty },
    },
    '/long/a': { get: { operationId: `${'very_long_operation_identifier_'.repeat(3)}alpha`, ...empty } },
    '/long/b': { get: { operationId: `${'very_long_operation_identifier_'.repeat(3)}beta`, ...empty } },
    '/no-id/a-b': { get: empty },
    '/no-id/a_b': { get: empty },
    '/no-id/a.b': { get: empty },
    '/': { get: empty, post: empty },
    '/odd-schema-names': {
      post: {
        operationId: 'oddSchemaNames',
        requestBody: {
          ...json({
            type: 'object',
            properties: {
              a: ref('Foo.Bar'),
              b: ref('Foo-Bar'),
              c: ref('foo%20bar'),
              d: ref('Ünï'),
              e: ref('50%25'),
              f: ref('a~1b'),
            },
          }),
        },
        responses: ok({
          type: 'object',
          properties: {
            ['__proto__']: { type: 'string' },
            constructor: { type: 'integer' },
            'with space': { type: 'string' },
            "quo'te": { type: 'string' },
          },
        }),
      },
    },
  };
  const schemas: JsonObject = {
    'Foo.Bar': { type: 'string' },
    'Foo-Bar': { type: 'integer' },
    'foo bar': { type: 'boolean' },
    Ünï: { type: 'object', properties: { x: ref('Foo.Bar') } },
    '50%': { type: 'number' },
    'a/b': { type: 'string' },
  };
  return doc31(paths, schemas);
}

/** A multi-file document: files keyed by relative path, the entry at `openapi.yaml`. */
export function externalFiles(): Record<string, JsonObject> {
  return {
    'openapi.yaml': {
      openapi: '3.1.0',
      info: { title: 'multi-file', version: '1' },
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            parameters: [{ $ref: './parameters.yaml#/Limit' }],
            responses: ok({ type: 'array', items: { $ref: './schemas/pet.yaml#/Pet' } }),
          },
          post: {
            operationId: 'createPet',
            requestBody: { required: true, ...json({ $ref: './schemas/pet.yaml#/Pet' }) },
            responses: ok({ $ref: './schemas/pet.yaml#/Pet' }),
          },
        },
        '/owners': { $ref: './paths/owners.yaml' },
        '/trees': {
          post: {
            operationId: 'postTree',
            requestBody: json({ $ref: './schemas/tree.yaml#/Tree' }),
            responses: ok({ $ref: './schemas/tree.yaml#/Forest' }),
          },
        },
      },
      components: { schemas: { Common: { type: 'object', properties: { version: { type: 'integer' } } } } },
    },
    'parameters.yaml': { Limit: { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 50 } } },
    'schemas/pet.yaml': {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          owner: { $ref: './owner.yaml' },
          tag: { $ref: '#/Tag' },
          common: { $ref: '../openapi.yaml#/components/schemas/Common' },
        },
      },
      Tag: { type: 'string', maxLength: 20 },
    },
    'schemas/owner.yaml': {
      type: 'object',
      properties: { name: { type: 'string' }, pets: { type: 'array', items: { $ref: './pet.yaml#/Pet' } } },
    },
    'schemas/tree.yaml': {
      Tree: {
        type: 'object',
        properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/Tree' } } },
      },
      Forest: { type: 'object', properties: { trees: { type: 'array', items: { $ref: '#/Tree' } } } },
    },
    'paths/owners.yaml': {
      get: { operationId: 'listOwners', responses: ok({ type: 'array', items: { $ref: '../schemas/owner.yaml' } }) },
    },
  };
}

export const hardSpecs: Record<string, () => JsonObject> = {
  'webhooks-only': webhooksOnly,
  'recursive-schemas': recursiveSchemas,
  'recursive-group': () => recursiveGroup(),
  'odd-names': oddNames,
  'openapi-3.0-dialect': openapi30,
  'openapi-3.1-dialect': openapi31,
  'locations-and-media': locationsAndMedia,
  'no-operation-ids': noOperationIds,
  'versioned-json-paths': versionedJsonPaths,
  'inline-3.1': inlineThreeOne,
};
