import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../scripts/codegen/inline-schema.ts';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { strictProfileViolations } from '../../scripts/codegen/strict-profile.ts';
import { buildDescriptor } from '../../scripts/codegen/tools.ts';
import { ajvCompileError, strictAjv, strictProfileProblems } from '../helpers/codegen.ts';
import { recursiveSchemas } from './synthetic-specs.ts';

const doc: JsonObject = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Name: { type: 'string', minLength: 1 } } } };
const input = (schema: Json) => inlineSchema(doc, schema, { mode: 'input' });

describe('inlineSchema keywords', () => {
  const cases: Array<[string, { given: Json; want: JsonObject }]> = [
    ['inlines a reference', { given: { $ref: '#/components/schemas/Name' }, want: { type: 'string', minLength: 1 } }],
    ['lets keywords beside a reference refine it', { given: { $ref: '#/components/schemas/Name', description: 'Who.' }, want: { type: 'string', minLength: 1, description: 'Who.' } }],
    ['turns 3.0 nullable into a type list', { given: { type: 'string', nullable: true }, want: { type: ['string', 'null'] } }],
    ['adds null to the enum of a nullable enum', { given: { type: 'string', enum: ['a'], nullable: true }, want: { type: ['string', 'null'], enum: ['a', null] } }],
    ['wraps a nullable schema without a type', { given: { nullable: true, description: 'x' }, want: { anyOf: [{ description: 'x' }, { type: 'null' }] } }],
    ['turns 3.0 boolean exclusive bounds into numbers', { given: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }, want: { type: 'integer', exclusiveMinimum: 0, maximum: 9 } }],
    ['keeps 3.1 numeric exclusive bounds', { given: { type: 'number', exclusiveMaximum: 1 }, want: { type: 'number', exclusiveMaximum: 1 } }],
    ['drops OpenAPI-only and extension keywords', { given: { type: 'object', discriminator: { propertyName: 'k' }, xml: { name: 'x' }, example: {}, externalDocs: { url: 'u' }, 'x-internal': true, deprecated: true }, want: { type: 'object' } }],
    ['drops keywords no JSON Schema version has', { given: { type: 'string', collectionFormat: 'csv', allowEmptyValue: true }, want: { type: 'string' } }],
    ['drops an unknown format', { given: { type: 'string', format: 'phone-number' }, want: { type: 'string' } }],
    ['drops a pattern that does not compile', { given: { type: 'string', pattern: '[' }, want: { type: 'string' } }],
    ['drops a bound written as a string', { given: { type: 'integer', minimum: '3', maxLength: -1 }, want: { type: 'integer' } }],
    ['reads Swagger 2 type file as a string', { given: { type: 'file' }, want: { type: 'string' } }],
    ['drops a type name JSON Schema does not have', { given: { type: 'date' }, want: {} }],
    ['drops a default of the wrong type', { given: { type: 'integer', default: '10' }, want: { type: 'integer' } }],
    ['keeps a default of the right type', { given: { type: ['integer', 'null'], default: null }, want: { type: ['integer', 'null'], default: null } }],
    ['gives an array without items empty items', { given: { type: 'array' }, want: { type: 'array', items: {} } }],
    ['turns Draft 4 tuples into prefixItems', { given: { type: 'array', items: [{ type: 'string' }], additionalItems: false }, want: { type: 'array', prefixItems: [{ type: 'string' }], items: false } }],
    ['gives prefixItems without items empty items', { given: { type: 'array', prefixItems: [{ type: 'string' }] }, want: { type: 'array', prefixItems: [{ type: 'string' }], items: {} } }],
    ['keeps additionalProperties false literal', { given: { type: 'object', additionalProperties: false }, want: { type: 'object', additionalProperties: false } }],
    ['turns boolean sub-schemas into objects', { given: { type: 'object', additionalProperties: true, properties: { a: true, b: false } }, want: { type: 'object', additionalProperties: {}, properties: { a: {}, b: { not: {} } } } }],
    ['drops a required name whose property is readOnly, keeps one declared elsewhere', { given: { type: 'object', required: ['id', 'name', 'other'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } }, want: { type: 'object', required: ['name', 'other'], properties: { name: { type: 'string' } } } }],
    ['reads an unresolvable reference as an empty schema', { given: { $ref: '#/components/schemas/Missing' }, want: {} }],
    ['keeps a property named __proto__ as a property', { given: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'), want: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const got = input(given);
    expect(got).toEqual(want);
    expect(ajvCompileError(strictAjv(), got)).toBeUndefined();
  });
});

describe('strictProfileViolations', () => {
  const cases: Array<[string, { given: Json; want: string[] }]> = [
    ['accepts a flat object', { given: { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, want: [] }],
    ['reports a $ref anywhere', { given: { type: 'object', properties: { a: { $ref: '#/x' } } }, want: ['t/properties/a: $ref is not allowed'] }],
    ['reports a top-level oneOf', { given: { type: 'object', oneOf: [] }, want: ['t: top-level oneOf is not allowed'] }],
    ['reports a top-level type that is not object', { given: { type: 'array', items: {} }, want: ['t: top-level type must be "object"'] }],
    ['reports an array without items, also in a type list', { given: { type: 'object', properties: { a: { type: ['array', 'null'] } } }, want: ['t/properties/a: array without items'] }],
    ['ignores data that looks like a schema', { given: { type: 'object', properties: { a: { enum: [{ $ref: 'x' }], default: { type: 'array' } } } }, want: [] }],
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
      for (const schema of [descriptor.inputSchema, descriptor.outputSchema].filter((s): s is JsonObject => s !== undefined)) {
        expect(strictProfileProblems(schema)).toEqual([]);
        expect(ajvCompileError(ajv, schema)).toBeUndefined();
        expect(JSON.stringify(schema).length).toBeLessThan(20_000);
      }
    }
  });

  it('marks where it cut', () => {
    const op = model.operations.find((o) => o.operationId === 'postNode')!;
    const { descriptor } = buildDescriptor(model.doc, { op, override: {}, name: 'postNode' });
    expect((descriptor.inputSchema.properties as JsonObject).parent).toEqual({ type: 'object', description: 'Nested structure omitted (recursive or too deep).' });
  });

  it('stops at the node budget when shared sub-schemas multiply', () => {
    const wide: JsonObject = { type: 'object', properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { $ref: '#/components/schemas/W' }])) };
    const fan = { ...doc, components: { schemas: { W: wide } } };
    const schema = inlineSchema(fan, { $ref: '#/components/schemas/W' }, { mode: 'input', maxNodes: 500 });
    expect(JSON.stringify(schema).length).toBeLessThan(100_000);
    expect(strictProfileProblems(schema)).toEqual([]);
  });
});
