import { describe, expect, it } from 'vitest';
import { compactInputSchema, compactOutputSchema } from '../../scripts/codegen/compact-schema.ts';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { strictAjv } from '../helpers/codegen.ts';

const object = (properties: JsonObject, more: JsonObject = {}): JsonObject => ({ type: 'object', ...more, properties });
const nullable = (branch: JsonObject, key = 'anyOf'): JsonObject => ({ [key]: [branch, { type: 'null' }] });

describe('compactOutputSchema', () => {
  const cases: Array<[string, { given: JsonObject; want: JsonObject }]> = [
    [
      'writes a nullable pair as a type list',
      { given: object({ at: nullable({ type: 'string' }) }), want: object({ at: { type: ['string', 'null'] } }) },
    ],
    [
      'writes a nullable oneOf pair as a type list',
      {
        given: object({ n: nullable({ type: 'integer' }, 'oneOf') }),
        want: object({ n: { type: ['integer', 'null'] } }),
      },
    ],
    [
      'keeps the keywords of the typed branch beside the type list',
      {
        given: object({ owner: nullable(object({ id: { type: 'string' } })) }),
        want: object({ owner: { type: ['object', 'null'], properties: { id: { type: 'string' } } } }),
      },
    ],
    [
      'writes a nullable enum as its values with null',
      {
        given: object({ state: nullable({ type: 'string', enum: ['on', 'off'] }) }),
        want: object({ state: { enum: ['on', 'off', null] } }),
      },
    ],
    [
      'drops the pair beside an enum that already lists null',
      {
        given: object({ state: { enum: ['on', null], ...nullable({ type: 'string' }) } }),
        want: object({ state: { enum: ['on', null] } }),
      },
    ],
    [
      'keeps the type beside values it does not all allow',
      {
        given: object({ v: { enum: ['a', 1, null], ...nullable({ type: 'string' }) } }),
        want: object({ v: { enum: ['a', 1, null], type: ['string', 'null'] } }),
      },
    ],
    [
      'leaves out required, bounds and closed objects',
      {
        given: object(
          {
            name: { type: 'string', minLength: 1, maxLength: 9, pattern: '^a' },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
            size: { type: 'integer', minimum: 0, maximum: 9 },
          },
          { required: ['name'], additionalProperties: false },
        ),
        want: object({
          name: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          size: { type: 'integer' },
        }),
      },
    ],
    [
      'reads a oneOf as anyOf, since loosened branches may overlap',
      {
        given: object({
          v: {
            oneOf: [
              { type: 'string', maxLength: 3 },
              { type: 'string', minLength: 4 },
            ],
          },
        }),
        want: object({ v: { anyOf: [{ type: 'string' }, { type: 'string' }] } }),
      },
    ],
    [
      'moves a oneOf beside an anyOf into allOf',
      {
        given: object({ v: { anyOf: [{ type: 'string' }, { type: 'integer' }], oneOf: [{ type: 'string' }] } }),
        want: object({
          v: { anyOf: [{ type: 'string' }, { type: 'integer' }], allOf: [{ anyOf: [{ type: 'string' }] }] },
        }),
      },
    ],
    [
      'keeps what is under not and if as written',
      {
        given: object({
          v: { type: 'string', not: { maxLength: 2 }, if: { minLength: 5 }, then: { pattern: '^x' } },
        }),
        want: object({ v: { type: 'string', not: { maxLength: 2 }, if: { minLength: 5 }, then: {} } }),
      },
    ],
    [
      'merges an allOf of plain objects into one',
      {
        given: object({
          row: {
            allOf: [
              object({ id: { type: 'string' } }, { required: ['id'] }),
              object({ title: { type: 'string' } }, { required: ['title'] }),
            ],
          },
        }),
        want: object({ row: object({ id: { type: 'string' }, title: { type: 'string' } }) }),
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(compactOutputSchema(given)).toEqual(want);
  });

  it('accepts every answer the written schema accepts', () => {
    const ajv = strictAjv();
    const written = object(
      {
        at: nullable({ type: 'string', maxLength: 30 }),
        state: nullable({ type: 'string', enum: ['on', 'off'] }, 'oneOf'),
        owner: nullable(object({ id: { type: 'string', pattern: '^u' } }, { required: ['id'] })),
      },
      { required: ['at', 'state'] },
    );
    const [before, after] = [ajv.compile(written), ajv.compile(compactOutputSchema(written))];
    const answers = [
      { at: null, state: null },
      { at: 'now', state: 'on', owner: { id: 'u1' } },
      { at: 'now', state: 'off', owner: null },
      { at: 1, state: 'on' },
      { at: 'now', state: 'maybe' },
    ];
    for (const answer of answers) if (before(answer)) expect(after(answer), JSON.stringify(answer)).toBe(true);
    // What it refuses by type or value it still refuses.
    expect(after({ at: 1, state: 'on' })).toBe(false);
    expect(after({ at: 'now', state: 'maybe' })).toBe(false);
  });
});

describe('compactInputSchema', () => {
  const cases: Array<[string, { given: JsonObject; headers?: string[]; want: JsonObject }]> = [
    [
      'keeps a nullable pair as anyOf branches, and every bound and required',
      {
        given: object(
          { at: nullable({ type: 'string', maxLength: 30 }), name: { type: 'string', pattern: '^[a-z]+$' } },
          { required: ['name'], additionalProperties: false },
        ),
        want: object(
          { at: nullable({ type: 'string', maxLength: 30 }), name: { type: 'string', pattern: '^[a-z]+$' } },
          { required: ['name'], additionalProperties: false },
        ),
      },
    ],
    [
      'drops the pattern of identifiers, at any depth',
      {
        given: object({
          id: { type: 'string', pattern: '^x_' },
          lead_id: { type: 'string', pattern: '^lead_', maxLength: 40 },
          lead_ids: { type: 'array', items: { type: 'string', pattern: '^lead_' } },
          owner: object({ user_id: { type: 'string', pattern: '^usr_' } }),
          paid: { type: 'string', pattern: '^[A-Z]{3}$' },
        }),
        want: object({
          id: { type: 'string' },
          lead_id: { type: 'string', maxLength: 40 },
          lead_ids: { type: 'array', items: { type: 'string' } },
          owner: object({ user_id: { type: 'string' } }),
          paid: { type: 'string', pattern: '^[A-Z]{3}$' },
        }),
      },
    ],
    [
      'keeps the type, values and description of a header argument',
      {
        given: object({
          if_match: { type: 'string', maxLength: 255, pattern: '^[!-~]+$', description: 'The ETag.' },
          query: { type: 'string', maxLength: 255 },
        }),
        headers: ['if_match'],
        want: object({
          if_match: { type: 'string', description: 'The ETag.' },
          query: { type: 'string', maxLength: 255 },
        }),
      },
    ],
    [
      'leaves the shared arguments described once, in the instructions, and a cursor without lengths',
      {
        given: object({
          idempotency_key: { type: 'string', maxLength: 255, description: 'A UUID.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size.' },
          cursor: { type: 'string', maxLength: 512, description: "The previous page's next_cursor." },
          query: { type: 'string', maxLength: 255, description: 'Words.' },
        }),
        headers: ['idempotency_key'],
        want: object({
          idempotency_key: { type: 'string' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          cursor: { type: 'string' },
          query: { type: 'string', maxLength: 255, description: 'Words.' },
        }),
      },
    ],
    [
      'merges an allOf of plain objects, and keeps one with a closed part',
      {
        given: object({
          open: { allOf: [object({ a: { type: 'string' } }), object({ b: { type: 'string' } }, { required: ['b'] })] },
          closed: {
            allOf: [
              object({ a: { type: 'string' } }, { additionalProperties: false }),
              object({ b: { type: 'string' } }),
            ],
          },
        }),
        want: object({
          open: object({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['b'] }),
          closed: {
            allOf: [
              object({ a: { type: 'string' } }, { additionalProperties: false }),
              object({ b: { type: 'string' } }),
            ],
          },
        }),
      },
    ],
    [
      'keeps an allOf whose parts name one property twice',
      {
        given: object({ v: { allOf: [object({ a: { type: 'string' } }), object({ a: { maxLength: 3 } })] } }),
        want: object({ v: { allOf: [object({ a: { type: 'string' } }), object({ a: { maxLength: 3 } })] } }),
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, headers, want }) => {
    expect(compactInputSchema(given, new Set(headers))).toEqual(want);
  });

  it('leaves the schema it was given as it was', () => {
    const given = object({ at: nullable({ type: 'string' }), lead_id: { type: 'string', pattern: '^lead_' } });
    const copy = structuredClone(given);
    compactInputSchema(given);
    compactOutputSchema(given);
    expect(given).toEqual(copy);
  });
});
