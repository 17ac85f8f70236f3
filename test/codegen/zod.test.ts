// The zod emitter is judged by behaviour: the emitted code is evaluated and must accept and reject sample
// values as the JSON Schema does (Ajv 2020 is the reference for 3.1 schemas). Where zod is deliberately
// looser (oneOf as a plain union, patternProperties), the `looser` samples document it.
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { ZodEmitter } from '../../scripts/codegen/zod.ts';
import { strictAjv } from '../helpers/codegen.ts';

interface Case {
  schema: Json;
  schemas?: JsonObject;
  /** 3.0-only keywords (nullable, boolean exclusive bounds) that Ajv does not know: no reference check. */
  dialect?: '3.0';
  accept: unknown[];
  reject: unknown[];
  looser?: unknown[];
}

/** Emits the schema (and the components it needs), evaluates the code with `z` in scope, returns the zod schema. */
function compile(schema: Json, schemas: JsonObject = {}): { source: string; zod: z.ZodType } {
  const emitter = new ZodEmitter({ openapi: '3.1.0', components: { schemas } });
  const expr = emitter.expr(schema);
  const declarations = emitter.declarations.map((d) => d.replace(/^export const (\w+): z\.ZodType =/, 'const $1 ='));
  const source = `${declarations.join('\n')}\nreturn ${expr};`;
  return { source, zod: new Function('z', source)(z) as z.ZodType };
}

const ajv = strictAjv();
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const node = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, children: { type: 'array', items: ref('Node') } },
};

const cases: Array<[string, Case]> = [
  [
    'string length and pattern',
    {
      schema: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' },
      accept: ['ab', 'abcd'],
      reject: ['a', 'abcde', 'AB', 3, null],
    },
  ],
  ['email format', { schema: { type: 'string', format: 'email' }, accept: ['a@b.co'], reject: ['not an email', 1] }],
  [
    'date-time format',
    {
      schema: { type: 'string', format: 'date-time' },
      accept: ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05+02:00'],
      reject: ['2024-01-02', 'yesterday'],
    },
  ],
  ['integer bounds', { schema: { type: 'integer', minimum: 1, maximum: 3 }, accept: [1, 3], reject: [0, 4, 1.5, '2'] }],
  [
    '3.1 exclusive bound beside an inclusive one',
    { schema: { type: 'number', minimum: 5, exclusiveMinimum: 0 }, accept: [5, 7.5], reject: [3, 0] },
  ],
  [
    '3.0 boolean exclusive bounds',
    {
      schema: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
      dialect: '3.0',
      accept: [0.5],
      reject: [0, 1],
    },
  ],
  ['multipleOf', { schema: { type: 'integer', multipleOf: 5 }, accept: [10], reject: [7] }],
  ['string enum', { schema: { enum: ['a', 'b'] }, accept: ['a'], reject: ['c', null] }],
  ['mixed enum with null', { schema: { enum: [1, 'a', null] }, accept: [1, 'a', null], reject: [2, 'b'] }],
  ['const', { schema: { const: 'EUR' }, accept: ['EUR'], reject: ['USD'] }],
  ['type list with null', { schema: { type: ['string', 'null'] }, accept: ['x', null], reject: [1] }],
  ['type list of two kinds', { schema: { type: ['number', 'string'] }, accept: [1, 'x'], reject: [true] }],
  ['3.0 nullable', { schema: { type: 'integer', nullable: true }, dialect: '3.0', accept: [1, null], reject: ['1'] }],
  [
    'object with required and optional properties',
    {
      schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      accept: [{ a: 'x' }, { a: 'x', b: 1, extra: true }],
      reject: [{ b: 1 }, { a: 1 }, [], null],
    },
  ],
  [
    'closed object',
    {
      schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
      accept: [{}, { a: 'x' }],
      reject: [{ a: 'x', b: 1 }],
    },
  ],
  [
    'map of integers',
    {
      schema: { type: 'object', additionalProperties: { type: 'integer' } },
      accept: [{}, { x: 1 }],
      reject: [{ x: 'y' }],
    },
  ],
  [
    'properties and a typed rest',
    {
      schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } },
      accept: [{ a: 'x', n: 1 }],
      reject: [{ a: 'x', n: 'y' }],
    },
  ],
  [
    'closed object with patternProperties',
    {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: { a: { type: 'string' } },
        patternProperties: { '^x-': { type: 'string' } },
      },
      accept: [{ a: 'x', 'x-y': 'z' }],
      reject: [{ a: 1 }],
      looser: [{ a: 'x', other: 1 }],
    },
  ],
  // Both zod and Ajv skip the value of a `__proto__` key (a prototype-pollution guard), so no sample tests it.
  [
    'a property named __proto__',
    {
      schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"string"}}}'),
      accept: [JSON.parse('{"__proto__":"x","a":"y"}')],
      reject: [{ a: 1 }],
    },
  ],
  [
    'array items and length',
    {
      schema: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 },
      accept: [[1], [1, 2]],
      reject: [[], [1, 2, 3], ['a'], {}],
    },
  ],
  [
    'closed tuple',
    {
      schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      accept: [[], ['a'], ['a', 1]],
      reject: [[1], ['a', 1, 2]],
    },
  ],
  [
    'tuple with a typed rest and a minimum',
    {
      schema: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' }, minItems: 2 },
      accept: [['a', true, false]],
      reject: [['a'], ['a', 1], [1, true]],
    },
  ],
  [
    'allOf',
    {
      schema: {
        allOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
          { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
        ],
      },
      accept: [{ a: 'x', b: 1 }],
      reject: [{ a: 'x' }, { b: 1 }],
    },
  ],
  [
    'allOf with properties beside it',
    {
      schema: {
        allOf: [{ type: 'object', properties: { a: { type: 'string' } } }],
        required: ['b'],
        properties: { b: { type: 'integer' } },
      },
      accept: [{ b: 1 }, { a: 'x', b: 2 }],
      reject: [{ a: 1, b: 1 }, { b: 'x' }],
    },
  ],
  [
    'oneOf with properties beside it',
    {
      schema: {
        oneOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
          { type: 'object', required: ['c'], properties: { c: { type: 'string' } } },
        ],
        properties: { b: { type: 'integer' } },
      },
      accept: [{ a: 'x', b: 1 }, { c: 'y' }],
      reject: [{ a: 'x', b: 'no' }, { b: 1 }],
    },
  ],
  ['anyOf', { schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, accept: ['x', 1], reject: [true, null] }],
  [
    'oneOf with overlapping members',
    { schema: { oneOf: [{ type: 'number' }, { type: 'integer' }] }, accept: [1.5], reject: ['x'], looser: [1] },
  ],
  [
    'a reference to a component',
    { schema: ref('Name'), schemas: { Name: { type: 'string', minLength: 1 } }, accept: ['x'], reject: ['', 1] },
  ],
  [
    'a self-recursive component',
    {
      schema: ref('Node'),
      schemas: { Node: node },
      accept: [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] }],
      reject: [
        { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] },
        { name: 'a', children: [1] },
      ],
    },
  ],
  [
    'a self-recursive array',
    {
      schema: ref('Tree'),
      schemas: { Tree: { type: 'array', items: ref('Tree') } },
      accept: [[], [[], [[]]]],
      reject: [[1], [[['x']]]],
    },
  ],
  [
    'mutually recursive components',
    {
      schema: ref('A'),
      schemas: {
        A: { type: 'object', properties: { b: ref('B') } },
        B: { type: 'object', required: ['a'], properties: { a: ref('A') } },
      },
      accept: [{}, { b: { a: { b: { a: {} } } } }],
      reject: [{ b: {} }, { b: { a: { b: 1 } } }],
    },
  ],
  [
    'recursion through additionalProperties',
    {
      schema: ref('Dict'),
      schemas: { Dict: { type: 'object', additionalProperties: ref('Dict') } },
      accept: [{ a: { b: {} } }],
      reject: [{ a: { b: 1 } }],
    },
  ],
  ['the true schema', { schema: true, accept: [1, 'x', null, {}], reject: [] }],
  ['the false schema', { schema: false, accept: [], reject: [1, null] }],
  ['the empty schema', { schema: {}, accept: [1, 'x', null, [], {}], reject: [] }],
];

describe('ZodEmitter', () => {
  it.each(cases)('agrees with JSON Schema on %s', (_, c) => {
    const { zod } = compile(c.schema, c.schemas);
    const verdicts = (values: unknown[]) => values.map((v) => zod.safeParse(v).success);
    expect(verdicts(c.accept)).toEqual(c.accept.map(() => true));
    expect(verdicts(c.reject)).toEqual(c.reject.map(() => false));
    expect(verdicts(c.looser ?? [])).toEqual((c.looser ?? []).map(() => true));
  });

  it.each(cases.filter(([, c]) => c.dialect !== '3.0'))('uses samples Ajv judges the same way for %s', (_, c) => {
    // Components move under $defs, where a strict Ajv expects them.
    const root = typeof c.schema === 'boolean' ? c.schema : { ...(c.schema as JsonObject), $defs: c.schemas ?? {} };
    const validate = ajv.compile(
      JSON.parse(JSON.stringify(root).replaceAll('#/components/schemas/', '#/$defs/')) as JsonObject,
    );
    expect([...c.accept, ...c.reject, ...(c.looser ?? [])].map((v) => validate(v))).toEqual([
      ...c.accept.map(() => true),
      ...c.reject.map(() => false),
      ...(c.looser ?? []).map(() => false),
    ]);
  });

  it('declares a property named __proto__ with a computed key', () => {
    expect(compile({ type: 'object', properties: JSON.parse('{"__proto__":{"type":"string"}}') }).source).toContain(
      `["__proto__"]: z.string().optional(),`,
    );
  });

  it('declares each component once, in dependency order, with z.lazy only inside a cycle', () => {
    const emitter = new ZodEmitter({
      components: {
        schemas: {
          A: { type: 'object', properties: { b: ref('B'), n: ref('N') } },
          B: { type: 'array', items: ref('A') },
          N: { type: 'string' },
        },
      },
    });
    expect(emitter.expr(ref('A'))).toBe('ASchema');
    expect(emitter.expr(ref('B'))).toBe('BSchema');
    expect(emitter.declarations).toEqual([
      'export const BSchema: z.ZodType = z.array(z.lazy(() => ASchema));',
      'export const NSchema: z.ZodType = z.string();',
      'export const ASchema: z.ZodType = z.looseObject({\n  "b": BSchema.optional(),\n  "n": NSchema.optional(),\n});',
    ]);
  });

  it('names components whose names are not identifiers apart', () => {
    const emitter = new ZodEmitter({
      components: {
        schemas: {
          'Foo.Bar': { type: 'string' },
          'Foo-Bar': { type: 'integer' },
          '50%': { type: 'number' },
          'a/b': { type: 'boolean' },
        },
      },
    });
    const exprs = [ref('Foo.Bar'), ref('Foo-Bar'), ref('50%25'), ref('50%'), ref('a~1b')].map((r) => emitter.expr(r));
    expect(exprs).toEqual(['FooBarSchema', 'FooBarSchema_2', 'N50Schema', 'N50Schema', 'ABSchema']);
  });
});
