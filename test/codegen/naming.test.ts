import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import {
  argName,
  headerArgName,
  identifier,
  isValidToolName,
  operationIdentifier,
  propertyKey,
  toolNameFor,
  typeName,
  uniqueNamer,
} from '../../scripts/codegen/naming.ts';

describe('toolNameFor', () => {
  const cases: Array<[string, { given: [string | undefined, string, string]; want: string }]> = [
    ['keeps a valid operationId', { given: ['listLeads', 'get', '/leads'], want: 'listLeads' }],
    ['keeps dashes and underscores', { given: ['list-leads_v2', 'get', '/leads'], want: 'list-leads_v2' }],
    ['replaces spaces and dots', { given: ['get user.by id', 'get', '/u'], want: 'get_user_by_id' }],
    ['collapses and trims replaced runs', { given: ['..get//user..', 'get', '/u'], want: 'get_user' }],
    ['folds accents instead of dropping the letters', { given: ['getÜberStraße', 'get', '/u'], want: 'getUberStra_e' }],
    [
      'names from method and path when nothing of the operationId survives',
      { given: ['日本語', 'post', '/items/{id}'], want: 'post_items_by_id' },
    ],
    [
      'names from method and path without an operationId',
      { given: [undefined, 'get', '/api/v3/movie/{id}'], want: 'get_api_v3_movie_by_id' },
    ],
    [
      'lower-cases path-made names',
      {
        given: [undefined, 'get', '/Accounts/{AccountSid}/Calls/{Sid}.json'],
        want: 'get_accounts_by_accountsid_calls_by_sid_json',
      },
    ],
    ['names the root path', { given: [undefined, 'delete', '/'], want: 'delete_root' }],
    ['keeps odd path characters out', { given: [undefined, 'get', '/tilde~/50%/a b'], want: 'get_tilde_50_a_b' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(toolNameFor(...given)).toBe(want);
  });

  it('fits a long name into 64 characters with a hash of the whole', () => {
    const long = `${'segment_'.repeat(12)}end`;
    const name = toolNameFor(long, 'get', '/x');
    expect(name).toHaveLength(64);
    expect(name.startsWith(long.slice(0, 56))).toBe(true);
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('keeps two long names with one prefix apart', () => {
    const prefix = 'very_long_operation_identifier_'.repeat(3);
    expect(toolNameFor(`${prefix}alpha`, 'get', '/a')).not.toBe(toolNameFor(`${prefix}beta`, 'get', '/b'));
  });
});

describe('uniqueNamer', () => {
  const cases: Array<[string, { given: string[]; want: string[] }]> = [
    ['numbers repeats from 2', { given: ['x', 'x', 'x'], want: ['x', 'x_2', 'x_3'] }],
    ['skips a suffix that is taken by a real name', { given: ['x', 'x_2', 'x'], want: ['x', 'x_2', 'x_3'] }],
    ['renames a real name that a suffix took first', { given: ['x', 'x', 'x_2'], want: ['x', 'x_2', 'x_2_2'] }],
    [
      'keeps suffixed names within 64 characters',
      { given: ['a'.repeat(64), 'a'.repeat(64)], want: ['a'.repeat(64), `${'a'.repeat(62)}_2`] },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const next = uniqueNamer();
    expect(given.map(next)).toEqual(want);
  });

  it('treats seeded names as taken', () => {
    expect(uniqueNamer(['raw'])('raw')).toBe('raw_2');
  });
});

describe('argName', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['keeps a plain name', { given: 'limit', want: 'limit' }],
    ['names a less-than comparison', { given: 'StartTime<', want: 'StartTime_lt' }],
    ['names a greater-than comparison', { given: 'StartTime>', want: 'StartTime_gt' }],
    ['names inclusive comparisons', { given: 'Date<=', want: 'Date_lte' }],
    ['names inequality', { given: 'status!=', want: 'status_ne' }],
    ['drops an array suffix', { given: 'ids[]', want: 'ids' }],
    ['keeps dots and dashes', { given: 'X-Request.Id', want: 'X-Request.Id' }],
    ['replaces brackets and spaces', { given: 'page[size] x', want: 'page_size_x' }],
    ['drops leading underscores left by a sigil', { given: '$filter', want: 'filter' }],
    ['folds accents', { given: 'Größe', want: 'Gro_e' }],
    ['names an empty key', { given: '', want: 'arg' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(argName(given)).toBe(want);
  });
});

describe('headerArgName', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['snake-cases a hyphenated header', { given: 'Idempotency-Key', want: 'idempotency_key' }],
    ['lower-cases a header in any spelling', { given: 'X-REQUEST-ID', want: 'x_request_id' }],
    ['keeps a one-word header', { given: 'Prefer', want: 'prefer' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(headerArgName(given)).toBe(want);
  });
});

describe('TypeScript names', () => {
  const identifiers: Array<[string, { given: string; want: string }]> = [
    ['camel-cases words', { given: 'list all leads', want: 'listAllLeads' }],
    ['suffixes a reserved word', { given: 'delete', want: 'delete_' }],
    ['prefixes a leading digit', { given: '123start', want: '_123start' }],
    ['folds accents', { given: 'getÜber', want: 'getUber' }],
    ['falls back when nothing is left', { given: '日本語', want: 'op' }],
  ];
  it.each(identifiers)('identifier %s', (_, { given, want }) => {
    expect(identifier(given)).toBe(want);
  });

  const operations: Array<[string, { given: string; want: string }]> = [
    ['keeps an operationId that is an identifier', { given: 'get_user', want: 'get_user' }],
    ['keeps a dollar sign', { given: 'ops$x', want: 'ops$x' }],
    ['rewrites a reserved word', { given: 'class', want: 'class_' }],
    ['rewrites one with spaces', { given: 'get user', want: 'getUser' }],
  ];
  it.each(operations)('operationIdentifier %s', (_, { given, want }) => {
    expect(operationIdentifier(given)).toBe(want);
  });

  const types: Array<[string, { given: string; want: string }]> = [
    ['pascal-cases', { given: 'getUser', want: 'GetUser' }],
    ['pascal-cases snake case', { given: 'get_user', want: 'GetUser' }],
    ['starts a digit-led name with a letter', { given: '_123', want: 'N123' }],
  ];
  it.each(types)('typeName %s', (_, { given, want }) => {
    expect(typeName(given)).toBe(want);
  });

  it('writes __proto__ as a computed key and every other key quoted', () => {
    expect([propertyKey('__proto__'), propertyKey('a b'), propertyKey('x')]).toEqual(['["__proto__"]', '"a b"', '"x"']);
  });

  it('accepts exactly the tool name alphabet', () => {
    expect(['ok', 'a-b_c', 'x'.repeat(64)].map(isValidToolName)).toEqual([true, true, true]);
    expect(['', 'a b', 'a.b', 'x'.repeat(65), 'ü'].map(isValidToolName)).toEqual([false, false, false, false, false]);
  });
});

const empty = { responses: { '204': { description: 'none' } } };
function model(paths: JsonObject) {
  return buildModel({ doc: { openapi: '3.1.0', info: { title: 't', version: '1' }, paths }, text: '', version: '3.1' });
}

describe('operation names in the model', () => {
  it('keeps path-made tool names apart when paths differ only in punctuation', () => {
    const m = model({ '/a-b': { get: empty }, '/a_b': { get: empty }, '/a.b': { get: empty } });
    expect(m.operations.map((op) => op.toolName)).toEqual(['get_a-b', 'get_a_b', 'get_a_b_2']);
    expect(new Set(m.operations.map((op) => op.id)).size).toBe(3);
  });

  it('keeps operationIds that collide after sanitising apart', () => {
    const m = model({
      '/1': { get: { operationId: 'get user', ...empty } },
      '/2': { get: { operationId: 'get.user', ...empty } },
      '/3': { get: { operationId: 'get_user', ...empty } },
    });
    expect(m.operations.map((op) => op.toolName)).toEqual(['get_user', 'get_user_2', 'get_user_3']);
    expect(new Set(m.operations.map((op) => op.id)).size).toBe(3);
  });

  it('gives operations whose ids differ only in case distinct type names', () => {
    const m = model({
      '/a': { get: { operationId: 'getFoo', ...empty } },
      '/b': { get: { operationId: 'GetFoo', ...empty } },
      '/c': { get: { operationId: 'get_foo', ...empty } },
    });
    expect(m.operations.map((op) => op.typeName)).toEqual(['GetFoo', 'GetFoo_2', 'GetFoo_3']);
  });

  it('renames a duplicate operationId, warns, and writes the new id into the document', () => {
    const m = model({
      '/one': { get: { operationId: 'dup', ...empty } },
      '/two': { get: { operationId: 'dup', ...empty } },
    });
    expect(m.operations.map((op) => op.operationId)).toEqual(['dup', 'dup_2']);
    expect(m.warnings).toEqual([
      expect.stringContaining('"dup" of GET /two is used before; this operation is called "dup_2"'),
    ]);
    expect(((m.doc.paths as JsonObject)['/two'] as JsonObject).get).toMatchObject({ operationId: 'dup_2' });
  });

  it('keeps identifiers off names the emitted code uses itself', () => {
    const m = model({
      '/r': {
        get: { operationId: 'raw', ...empty },
        post: { operationId: '__proto__', ...empty },
        put: { operationId: 'constructor', ...empty },
      },
    });
    expect(m.operations.map((op) => op.id)).toEqual(['raw_2', 'constructor_2', '__proto___2']);
    expect(m.operations.map((op) => op.toolName)).toEqual(['raw', 'constructor', 'proto']);
  });

  it('names an operation by method and path when its operationId has no Latin letters or digits', () => {
    const m = model({ '/items': { post: { operationId: '日本語', ...empty } } });
    expect(m.operations[0]).toMatchObject({ id: 'postItems', toolName: 'post_items', operationId: '日本語' });
  });
});
