import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../scripts/codegen/inline-schema.ts';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { strictProfileViolations } from '../../scripts/codegen/strict-profile.ts';
import { buildDescriptor } from '../../scripts/codegen/tools.ts';
import { ajvCompileError, strictAjv, strictProfileProblems } from '../helpers/codegen.ts';
import { recursiveSchemas } from './synthetic-specs.ts';

const doc: JsonObject = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {},
  components: { schemas: { Name: { type: 'string', minLength: 1 } } },
};
const input = (schema: Json) => inlineSchema(doc, schema, { mode: 'input' });

describe('inlineSchema keywords', () => {
  const cases: Array<[string, { given: Json; want: JsonObject }]> = [
    ['inlines a reference', { given: { $ref: '#/components/schemas/Name' }, want: { type: 'string', minLength: 1 } }],
    [
      'lets keywords beside a reference refine it',
      {
        given: { $ref: '#/components/schemas/Name', description: 'Who.' },
        want: { type: 'string', minLength: 1, description: 'Who.' },
      },
    ],
    [
      'turns 3.0 nullable into a null branch',
      { given: { type: 'string', nullable: true }, want: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    ],
    [
      'adds null to the enum of a nullable enum',
      {
        given: { type: 'string', enum: ['a'], nullable: true },
        want: { anyOf: [{ type: 'string' }, { type: 'null' }], enum: ['a', null] },
      },
    ],
    [
      'puts the keywords of a nullable array in its branch',
      {
        given: { type: 'array', items: { type: 'string' }, minItems: 1, nullable: true, description: 'd' },
        want: {
          description: 'd',
          anyOf: [{ type: 'array', items: { type: 'string' }, minItems: 1 }, { type: 'null' }],
        },
      },
    ],
    [
      'splits a type list into branches of one type, each with its own keywords',
      {
        given: { type: ['string', 'integer', 'null'], maxLength: 5, minimum: 1, format: 'date-time', description: 'd' },
        want: {
          description: 'd',
          anyOf: [
            { type: 'string', maxLength: 5, format: 'date-time' },
            { type: 'integer', minimum: 1 },
            { type: 'null' },
          ],
        },
      },
    ],
    [
      'keeps a type list apart from an anyOf beside it',
      {
        given: { type: ['object', 'null'], anyOf: [{ required: ['a'] }, { required: ['b'] }] },
        want: {
          anyOf: [{ required: ['a'] }, { required: ['b'] }],
          allOf: [{ anyOf: [{ type: 'object' }, { type: 'null' }] }],
        },
      },
    ],
    ['writes a type list of one name as the name', { given: { type: ['string'] }, want: { type: 'string' } }],
    [
      'wraps a nullable schema without a type',
      { given: { nullable: true, description: 'x' }, want: { anyOf: [{ description: 'x' }, { type: 'null' }] } },
    ],
    [
      'turns 3.0 boolean exclusive bounds into numbers',
      {
        given: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
        want: { type: 'integer', exclusiveMinimum: 0, maximum: 9 },
      },
    ],
    [
      'keeps 3.1 numeric exclusive bounds',
      { given: { type: 'number', exclusiveMaximum: 1 }, want: { type: 'number', exclusiveMaximum: 1 } },
    ],
    [
      'drops OpenAPI-only and extension keywords',
      {
        given: {
          type: 'object',
          discriminator: { propertyName: 'k' },
          xml: { name: 'x' },
          example: {},
          externalDocs: { url: 'u' },
          'x-internal': true,
          deprecated: true,
        },
        want: { type: 'object' },
      },
    ],
    [
      'drops keywords no JSON Schema version has',
      { given: { type: 'string', collectionFormat: 'csv', allowEmptyValue: true }, want: { type: 'string' } },
    ],
    ['drops an unknown format', { given: { type: 'string', format: 'phone-number' }, want: { type: 'string' } }],
    ['drops a pattern that does not compile', { given: { type: 'string', pattern: '[' }, want: { type: 'string' } }],
    [
      'drops a bound written as a string',
      { given: { type: 'integer', minimum: '3', maxLength: -1 }, want: { type: 'integer' } },
    ],
    ['reads Swagger 2 type file as a string', { given: { type: 'file' }, want: { type: 'string' } }],
    ['drops a type name JSON Schema does not have', { given: { type: 'date' }, want: {} }],
    ['drops a default of the wrong type', { given: { type: 'integer', default: '10' }, want: { type: 'integer' } }],
    [
      'keeps a default of the right type',
      {
        given: { type: ['integer', 'null'], default: null },
        want: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
      },
    ],
    ['gives an array without items empty items', { given: { type: 'array' }, want: { type: 'array', items: {} } }],
    [
      'turns Draft 4 tuples into prefixItems, writing no more items as a schema',
      {
        given: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
        want: { type: 'array', prefixItems: [{ type: 'string' }], items: { not: {} } },
      },
    ],
    [
      'gives prefixItems without items empty items',
      {
        given: { type: 'array', prefixItems: [{ type: 'string' }] },
        want: { type: 'array', prefixItems: [{ type: 'string' }], items: {} },
      },
    ],
    [
      'keeps additionalProperties false literal',
      { given: { type: 'object', additionalProperties: false }, want: { type: 'object', additionalProperties: false } },
    ],
    [
      'turns boolean sub-schemas into objects',
      {
        given: { type: 'object', properties: { a: true, b: false } },
        want: { type: 'object', properties: { a: {}, b: { not: {} } } },
      },
    ],
    [
      'leaves out additionalProperties true or {} (the default), keeps false and typed ones',
      {
        given: {
          type: 'object',
          properties: {
            t: { type: 'object', additionalProperties: true },
            e: { type: 'object', additionalProperties: {} },
            f: { type: 'object', additionalProperties: false },
            s: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        want: {
          type: 'object',
          properties: {
            t: { type: 'object' },
            e: { type: 'object' },
            f: { type: 'object', additionalProperties: false },
            s: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    ],
    [
      'drops a required name whose property is readOnly, keeps one declared elsewhere',
      {
        given: {
          type: 'object',
          required: ['id', 'name', 'other'],
          properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
        },
        want: { type: 'object', required: ['name', 'other'], properties: { name: { type: 'string' } } },
      },
    ],
    [
      'reads an unresolvable reference as an empty schema',
      { given: { $ref: '#/components/schemas/Missing' }, want: {} },
    ],
    [
      'keeps a property named __proto__ as a property',
      {
        given: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
        want: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const got = input(given);
    expect(got).toEqual(want);
    expect(ajvCompileError(strictAjv(), got)).toBeUndefined();
  });
});

describe('inlineSchema with dropAnnotations (tool output schemas)', () => {
  const output = (schema: Json) => inlineSchema(doc, schema, { mode: 'output', dropAnnotations: true });
  const cases: Array<[string, { given: Json; want: JsonObject }]> = [
    [
      'drops description, format and default, keeps the assertions',
      {
        given: { type: 'string', description: 'd', format: 'date-time', default: 'x', pattern: '^a', maxLength: 3 },
        want: { type: 'string', pattern: '^a', maxLength: 3 },
      },
    ],
    [
      'drops a description beside a reference',
      { given: { $ref: '#/components/schemas/Name', description: 'Who.' }, want: { type: 'string', minLength: 1 } },
    ],
    [
      'keeps a property named description, and required',
      {
        given: {
          type: 'object',
          required: ['description'],
          properties: { description: { type: 'string', description: 'Text.' } },
        },
        want: { type: 'object', required: ['description'], properties: { description: { type: 'string' } } },
      },
    ],
    [
      'keeps null branches and enums',
      {
        given: { type: ['string', 'null'], enum: ['a', null], format: 'date-time', description: 'd' },
        want: { enum: ['a', null], anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    ],
    [
      'keeps const, items and additionalProperties false',
      {
        given: {
          type: 'array',
          description: 'd',
          items: { type: 'object', additionalProperties: false, properties: { k: { const: 'v', description: 'd' } } },
        },
        want: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, properties: { k: { const: 'v' } } },
        },
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const got = output(given);
    expect(got).toEqual(want);
    expect(ajvCompileError(strictAjv(), got)).toBeUndefined();
  });

  it('keeps the note on a cut branch', () => {
    const fan = fanDoc(2, 1);
    const schema = inlineSchema(
      fan,
      { type: 'object', properties: { x: { $ref: '#/components/schemas/L0', description: 'Where.' } } },
      { mode: 'output', maxRefDepth: 0, dropAnnotations: true },
    );
    expect((schema.properties as JsonObject).x).toEqual({ type: 'object', description: note('L0') });
  });

  it('is remembered apart from the same schema with its annotations', () => {
    const given = { type: 'string', description: 'd' };
    expect(inlineSchema(doc, given, { mode: 'output' })).toEqual(given);
    expect(output(given)).toEqual({ type: 'string' });
  });
});

describe('strictProfileViolations', () => {
  const cases: Array<[string, { given: Json; want: string[] }]> = [
    [
      'accepts a flat object',
      { given: { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, want: [] },
    ],
    [
      'reports a $ref anywhere',
      { given: { type: 'object', properties: { a: { $ref: '#/x' } } }, want: ['t/properties/a: $ref is not allowed'] },
    ],
    [
      'reports a top-level oneOf',
      { given: { type: 'object', oneOf: [] }, want: ['t: top-level oneOf is not allowed'] },
    ],
    [
      'reports a top-level type that is not object',
      { given: { type: 'array', items: {} }, want: ['t: top-level type must be "object"'] },
    ],
    [
      'reports an array without items, also in a type list',
      {
        given: { type: 'object', properties: { a: { type: ['array', 'null'] } } },
        want: ['t/properties/a: array without items'],
      },
    ],
    [
      'ignores data that looks like a schema',
      { given: { type: 'object', properties: { a: { enum: [{ $ref: 'x' }], default: { type: 'array' } } } }, want: [] },
    ],
    ['reports a schema that is not an object', { given: true, want: ['t: schema is not an object'] }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(strictProfileViolations(given, 't')).toEqual(want);
  });
});

describe('recursive schemas in tool descriptors', () => {
  const spec = recursiveSchemas();
  const model = buildModel({ doc: spec, text: '', version: '3.1' });
  const ajv = strictAjv();
  const names = Object.keys((spec.components as JsonObject).schemas as JsonObject);

  it.each(names)('cuts %s at a bounded depth and meets the strict profile', (name) => {
    for (const op of model.operations.filter((o) => o.path === `/${name.toLowerCase()}`)) {
      const { descriptor, violations } = buildDescriptor(model.doc, { op, override: {}, name: op.toolName });
      expect(violations).toEqual([]);
      for (const [side, schema] of [
        ['input', descriptor.inputSchema],
        ['output', descriptor.outputSchema],
      ] as const) {
        if (!schema) continue;
        expect(strictProfileProblems(schema, side)).toEqual([]);
        expect(ajvCompileError(ajv, schema)).toBeUndefined();
        expect(JSON.stringify(schema).length).toBeLessThan(20_000);
      }
    }
  });

  it('marks where it cut recursion, naming the schema', () => {
    const op = model.operations.find((o) => o.operationId === 'postNode')!;
    const { descriptor } = buildDescriptor(model.doc, { op, override: {}, name: 'postNode' });
    expect((descriptor.inputSchema.properties as JsonObject).parent).toEqual({
      type: 'object',
      description: 'Node: recursive schema omitted here; see the API reference.',
    });
  });
});

/** A tree of distinct schemas: L0 has `fan` properties referring to L1, each of those `fan` to L2, ... */
function fanDoc(levels: number, fan: number): JsonObject {
  const schemas: JsonObject = {};
  for (let level = 0; level < levels; level++) {
    const next: JsonObject = level + 1 < levels ? { $ref: `#/components/schemas/L${level + 1}` } : { type: 'string' };
    schemas[`L${level}`] = {
      type: 'object',
      description: `Level ${level}.`,
      properties: Object.fromEntries(Array.from({ length: fan }, (_, i) => [`p${i}`, next])),
    };
  }
  return { ...doc, components: { schemas } };
}

const note = (name: string) => `${name}: nested schema omitted at the depth/size budget; see the API reference.`;
const sizeOf = (schema: Json) => JSON.stringify(schema).length;

describe('the size budget', () => {
  const fan = fanDoc(7, 8);
  const root = { $ref: '#/components/schemas/L0' };

  it('keeps a schema within its budget when shared sub-schemas multiply', () => {
    for (const maxChars of [1500, 4000, 16_384]) {
      const schema = inlineSchema(fan, root, { mode: 'output', maxChars });
      expect(sizeOf(schema)).toBeLessThanOrEqual(maxChars);
      expect(strictProfileProblems(schema)).toEqual([]);
    }
  });

  it('goes as deep as the budget allows, to the same depth on every branch', () => {
    const schema = inlineSchema(fan, root, { mode: 'output', maxChars: 8000 });
    const level1 = Object.values(schema.properties as JsonObject) as JsonObject[];
    expect(level1).toHaveLength(8);
    for (const child of level1) {
      expect(child.description).toBe('Level 1.');
      for (const grandchild of Object.values(child.properties as JsonObject))
        expect(grandchild).toEqual({ type: 'object', description: note('L2') });
    }
  });

  it('follows every reference when the whole schema fits', () => {
    const small = fanDoc(3, 2);
    expect(JSON.stringify(inlineSchema(small, root, { mode: 'output' }))).not.toContain('omitted');
  });

  it('always follows a reference at the root, however small the budget', () => {
    const schema = inlineSchema(fan, root, { mode: 'output', maxChars: 50 });
    expect(Object.keys(schema.properties as JsonObject)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
  });

  it('keeps null allowed on a cut branch that allowed it', () => {
    const nullable = {
      ...doc,
      components: {
        schemas: {
          A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
          B: { type: 'object', nullable: true, properties: { a: { $ref: '#/components/schemas/A' } } },
        },
      },
    };
    const schema = inlineSchema(nullable, { $ref: '#/components/schemas/A' }, { mode: 'output', maxRefDepth: 1 });
    expect((schema.properties as JsonObject).b).toEqual({
      description: note('B'),
      anyOf: [{ type: 'object' }, { type: 'null' }],
    });
  });

  it('adds the note to a description written beside a cut reference', () => {
    const schema = inlineSchema(
      fan,
      { type: 'object', properties: { x: { $ref: '#/components/schemas/L0', description: 'Where.' } } },
      { mode: 'output', maxRefDepth: 0 },
    );
    expect((schema.properties as JsonObject).x).toEqual({ type: 'object', description: `Where.\n\n${note('L0')}` });
  });

  it('keeps a schema written out wider than its budget within it, every property kept and the ones past it cut', () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `field${i}`,
          { type: 'string', description: `Field ${i}, described at some length.`.repeat(3) },
        ]),
      ),
    };
    const schema = inlineSchema(doc, wide, { mode: 'input', maxChars: 2000 });
    const props = schema.properties as Record<string, JsonObject>;
    expect(sizeOf(schema)).toBeLessThanOrEqual(2000);
    expect(Object.keys(props)).toHaveLength(40);
    expect(props.field0.description).toContain('Field 0');
    expect(props.field39).toEqual({ type: 'string' });
    expect(schema.description).toBe('Some nested schemas are omitted at the size budget; see the API reference.');
    expect(ajvCompileError(strictAjv(), schema)).toBeUndefined();
  });
});
