import { describe, expect, it } from 'vitest';
import { findUnstorableText, storable, uncheckedPath, type UnstorableFinding } from '../../src/http/storable-text.ts';

describe('storable', () => {
  const cases: Array<[string, { given: string; want: boolean }]> = [
    ['keeps plain text', { given: 'plain', want: true }],
    ['keeps other control characters', { given: 'tab\there\u0001\u007f', want: true }],
    ['keeps a surrogate pair (non-BMP text)', { given: 'fox 🦊', want: true }],
    ['keeps U+FFFD and the last BMP characters', { given: '\ufffd\uffff', want: true }],
    ['refuses U+0000', { given: 'a\u0000b', want: false }],
    ['refuses a lone high surrogate', { given: 'a\ud800b', want: false }],
    ['refuses a lone low surrogate', { given: '\udfff', want: false }],
    ['refuses a pair written backwards', { given: '\ude00\ud83d', want: false }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(storable(given)).toBe(want);
  });
});

describe('findUnstorableText', () => {
  const cases: Array<[string, { given: unknown; unchecked?: string[]; want: UnstorableFinding[] }]> = [
    ['finds nothing in clean input', { given: { a: 'x', b: [1, true, null, { c: 'y' }] }, want: [] }],
    ['finds a string at the top', { given: '\u0000', want: [{ path: [], key: false }] }],
    [
      'finds a nested value',
      { given: { custom_fields: { plan: 'a\u0000' } }, want: [{ path: ['custom_fields', 'plan'], key: false }] },
    ],
    [
      'finds a key',
      { given: { custom_fields: { 'p\ud800': 'x' } }, want: [{ path: ['custom_fields', 'p\ud800'], key: true }] },
    ],
    ['finds array items by index', { given: { tags: ['ok', 'b\u0000'] }, want: [{ path: ['tags', 1], key: false }] }],
    [
      'skips an unchecked place and what is inside it',
      {
        given: { rows: [{ email: '\u0000' }], csv: '\u0000', tags: ['\u0000'] },
        unchecked: ['/rows', '/csv'],
        want: [{ path: ['tags', 0], key: false }],
      },
    ],
    [
      'matches * against any item or member',
      {
        given: { rows: [{ note: '\u0000', name: '\u0000' }] },
        unchecked: ['/rows/*/note'],
        want: [{ path: ['rows', 0, 'name'], key: false }],
      },
    ],
    ['skips everything when the root is unchecked', { given: 'a\u0000', unchecked: [''], want: [] }],
  ];
  it.each(cases)('%s', (_, { given, unchecked = [], want }) => {
    expect(findUnstorableText(given, unchecked.map(uncheckedPath))).toEqual(want);
  });

  it('stops after twenty findings', () => {
    expect(findUnstorableText(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20);
  });

  it('reads an escaped pointer segment', () => {
    expect(uncheckedPath('/a~1b~0c/*')).toEqual(['a/b~c', '*']);
  });
});
