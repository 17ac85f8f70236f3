import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { typesDocument } from '../../scripts/codegen/type-cycles.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const withSchemas = (schemas: JsonObject): JsonObject => ({ openapi: '3.1.0', paths: {}, components: { schemas } });
const schemasOf = (doc: JsonObject) => (doc.components as JsonObject).schemas as JsonObject;

describe('typesDocument', () => {
  const cases: Array<[string, { given: JsonObject; want: JsonObject }]> = [
    [
      'cuts a self-recursive array',
      { given: { Tree: { type: 'array', items: ref('Tree') } }, want: { Tree: { type: 'array', items: {} } } },
    ],
    [
      'keeps recursion through an object property',
      {
        given: {
          Node: { type: 'object', properties: { next: ref('Node'), list: { type: 'array', items: ref('Node') } } },
        },
        want: {
          Node: { type: 'object', properties: { next: ref('Node'), list: { type: 'array', items: ref('Node') } } },
        },
      },
    ],
    [
      'keeps recursion through additionalProperties',
      {
        given: { Dict: { type: 'object', additionalProperties: ref('Dict') } },
        want: { Dict: { type: 'object', additionalProperties: ref('Dict') } },
      },
    ],
    [
      'cuts a cycle through a union and an array, on both sides',
      {
        given: {
          A: { oneOf: [ref('B'), { type: 'string' }] },
          B: { type: 'array', items: ref('A') },
          C: { type: 'array', items: ref('A') },
        },
        want: {
          A: { oneOf: [{}, { type: 'string' }] },
          B: { type: 'array', items: {} },
          C: { type: 'array', items: ref('A') },
        },
      },
    ],
    ['cuts an alias cycle', { given: { A: ref('B'), B: { allOf: [ref('A')] } }, want: { A: {}, B: { allOf: [{}] } } }],
    [
      'keeps a reference into a component that closes no cycle',
      {
        given: { Node: { type: 'object', properties: { kids: { type: 'array' } } }, Kids: ref('Node/properties/kids') },
        want: { Node: { type: 'object', properties: { kids: { type: 'array' } } }, Kids: ref('Node/properties/kids') },
      },
    ],
    [
      'cuts a pointer into itself',
      {
        given: { Self: { type: 'object', properties: { a: { type: 'string' }, b: ref('Self/properties/a') } } },
        want: { Self: { type: 'object', properties: { a: { type: 'string' }, b: {} } } },
      },
    ],
    [
      'leaves a reference to a missing schema',
      { given: { A: { type: 'array', items: ref('Missing') } }, want: { A: { type: 'array', items: ref('Missing') } } },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(schemasOf(typesDocument(withSchemas(given)))).toEqual(want);
  });

  it('returns the same document when nothing needs cutting, and never changes its input', () => {
    const doc = withSchemas({ Tree: { type: 'array', items: ref('Tree') } });
    const copy = structuredClone(doc);
    typesDocument(doc);
    expect(doc).toEqual(copy);
    const plain = withSchemas({ A: { type: 'string' } });
    expect(typesDocument(plain)).toBe(plain);
  });
});
