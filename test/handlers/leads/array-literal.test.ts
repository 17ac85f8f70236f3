import { describe, expect, it } from 'vitest';
import { ArrayLiteralWriter } from '../../../src/handlers/leads/array-literal.ts';

const literal = (values: Array<string | null>, initialBytes?: number) => {
  const writer = new ArrayLiteralWriter(initialBytes);
  for (const value of values) writer.push(value);
  return writer.toString();
};

describe('ArrayLiteralWriter', () => {
  const cases: Array<[string, { given: Array<string | null>; want: string }]> = [
    ['writes an empty array', { given: [], want: '{}' }],
    ['quotes every element, so NULL and {} stay text', { given: ['NULL', '{}', ''], want: '{"NULL","{}",""}' }],
    ['writes null as NULL', { given: ['a', null, 'b'], want: '{"a",NULL,"b"}' }],
    ['escapes double quotes and backslashes', { given: ['say "hi"', 'C:\\dir'], want: '{"say \\"hi\\"","C:\\\\dir"}' }],
    [
      'keeps commas, braces and line breaks inside quotes',
      { given: ['Acme, Inc.', 'a}b', 'l1\r\nl2'], want: '{"Acme, Inc.","a}b","l1\r\nl2"}' },
    ],
    [
      'writes UTF-8 of any width',
      { given: ['José', 'Müller & Söhne', '東京', '😀'], want: '{"José","Müller & Söhne","東京","😀"}' },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(literal(given)).toBe(want);
  });

  it('grows past its first buffer without losing what was written', () => {
    const values = Array.from({ length: 500 }, (_, i) => `v${i}-ü"\\`);
    expect(literal(values, 16)).toBe(`{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`);
  });

  it('counts the elements written', () => {
    const writer = new ArrayLiteralWriter();
    writer.push('a');
    writer.push(null);
    expect(writer.size).toBe(2);
  });
});
