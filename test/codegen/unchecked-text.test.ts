import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { uncheckedTextPointers } from '../../scripts/codegen/unchecked-text.ts';

const why = { 'x-unchecked-text': 'reported per row' };
const doc: JsonObject = {
  components: {
    schemas: {
      Marked: { type: 'string', ...why },
      Row: { type: 'object', properties: { note: { type: 'string', ...why }, name: { type: 'string' } } },
      Tree: {
        type: 'object',
        properties: { child: { $ref: '#/components/schemas/Tree' }, text: { type: 'string', ...why } },
      },
    },
  },
};

describe('uncheckedTextPointers', () => {
  const cases: Array<[string, { given: Json; want: string[] }]> = [
    [
      'finds nothing in an unmarked schema',
      { given: { type: 'object', properties: { a: { type: 'string' } } }, want: [] },
    ],
    [
      'names a marked property',
      {
        given: { type: 'object', properties: { csv: { type: 'string', ...why }, url: { type: 'string' } } },
        want: ['/csv'],
      },
    ],
    ['names the whole body when the root is marked', { given: { type: 'string', ...why }, want: [''] }],
    [
      'stops at a marked place instead of listing what is inside it',
      { given: { type: 'array', items: { $ref: '#/components/schemas/Row' }, ...why }, want: [''] },
    ],
    [
      'names array items and additional members with *',
      {
        given: {
          type: 'object',
          properties: {
            rows: { type: 'array', items: { $ref: '#/components/schemas/Row' } },
            map: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Marked' } },
          },
        },
        want: ['/rows/*/note', '/map/*'],
      },
    ],
    [
      'reads a mark on the referenced schema and beside a reference',
      {
        given: {
          type: 'object',
          properties: { a: { $ref: '#/components/schemas/Marked' }, b: { $ref: '#/components/schemas/Row', ...why } },
        },
        want: ['/a', '/b'],
      },
    ],
    [
      'looks into allOf, anyOf and oneOf members at the same place',
      {
        given: {
          allOf: [{ $ref: '#/components/schemas/Row' }],
          oneOf: [{ type: 'object', properties: { x: { type: 'string', ...why } } }],
        },
        want: ['/note', '/x'],
      },
    ],
    [
      'escapes keys as JSON pointer segments',
      { given: { type: 'object', properties: { 'a/b~c': { type: 'string', ...why } } }, want: ['/a~1b~0c'] },
    ],
    ['ends at a recursive reference', { given: { $ref: '#/components/schemas/Tree' }, want: ['/text'] }],
    [
      'ignores an empty reason',
      { given: { type: 'object', properties: { a: { type: 'string', 'x-unchecked-text': ' ' } } }, want: [] },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(uncheckedTextPointers(doc, given)).toEqual(want);
  });
});
