import { describe, expect, it } from 'vitest';
import { CopyTextWriter } from '../../../src/handlers/leads/copy-text.ts';

const rows = (given: Array<Array<string | null>>, initialBytes?: number) => {
  const writer = new CopyTextWriter(initialBytes);
  for (const row of given) {
    for (const value of row) writer.field(value);
    writer.endRow();
  }
  return writer.view().toString('utf8');
};

describe('CopyTextWriter', () => {
  const cases: Array<[string, { given: Array<Array<string | null>>; want: string }]> = [
    ['writes nothing for no rows', { given: [], want: '' }],
    [
      'separates fields by tabs and ends each row with a newline',
      {
        given: [
          ['a', 'b'],
          ['c', 'd'],
        ],
        want: 'a\tb\nc\td\n',
      },
    ],
    [
      'writes null as \\N and the text \\N with its backslash escaped',
      { given: [[null, '\\N', 'NULL', '']], want: '\\N\t\\\\N\tNULL\t\n' },
    ],
    [
      'escapes backslashes, tabs, newlines and carriage returns',
      { given: [['C:\\dir', 'a\tb', 'l1\r\nl2']], want: 'C:\\\\dir\ta\\tb\tl1\\r\\nl2\n' },
    ],
    [
      'keeps quotes, commas, braces and UTF-8 of any width as they are',
      { given: [['say "hi"', 'Acme, Inc.', '{"x"}', '東京 😀']], want: 'say "hi"\tAcme, Inc.\t{"x"}\t東京 😀\n' },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(rows(given)).toBe(want);
  });

  it('grows from a small buffer without losing what it holds', () => {
    const given = Array.from({ length: 500 }, (_, i) => [`row ${i}`, 'ünïcödé\t'.repeat(i % 7)]);
    const want = given.map(([a, b]) => `${a}\t${b.replaceAll('\t', '\\t')}\n`).join('');
    expect(rows(given, 16)).toBe(want);
  });

  it('counts the bytes written, for sizing the next batch', () => {
    const writer = new CopyTextWriter();
    writer.field('é');
    writer.integer(42);
    writer.endRow();
    expect(writer.bytes).toBe(Buffer.byteLength('é\t42\n'));
  });
});
