import { describe, expect, it } from 'vitest';
import { detectDelimiter } from '../../../src/handlers/leads/csv-input.ts';
import { readCsvRows, type CsvItem, type ReadCsvOptions } from '../../../src/handlers/leads/csv-rows.ts';

/** The file as byte chunks of `size`, so that records, CRLFs and UTF-8 characters straddle chunks. */
async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const buffer = new TextEncoder().encode(text);
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

async function read(text: string, size: number, options?: ReadCsvOptions): Promise<CsvItem[]> {
  const items: CsvItem[] = [];
  for await (const item of readCsvRows(bytes(text, size), options)) items.push(item);
  return items;
}

describe('detectDelimiter', () => {
  it.each([
    ['a comma header', 'email,first_name,company', ','],
    ['a semicolon header', 'E-Mail;Vorname;Firma', ';'],
    ['a tab header', 'email\tname\tcompany', '\t'],
    ['a semicolon header whose quoted name holds a comma', 'Email;"Name, Vorname";Firma', ';'],
    ['a header with a comma inside a name and more semicolons', 'Name, Title;Email;Phone', ';'],
    ['a single column', 'email', ','],
    ['a tie', 'a;b,c', ','],
    ['only the first line', 'a;b\nc,d,e,f', ';'],
    ['a header with a BOM', '\ufeffemail;name', ';'],
  ])('reads %s as %j', (_, headerLine, want) => {
    expect(detectDelimiter(headerLine)).toBe(want);
  });
});

describe.each([
  ['whole', Number.MAX_SAFE_INTEGER],
  ['3 bytes at a time', 3],
])('readCsvRows (file read %s)', (_, size) => {
  it('reads a BOM + semicolon file holding "Acme, Inc." as Excel writes it in Europe', async () => {
    const file =
      '\ufeffE-Mail;Vorname;Firma\r\njane@acme.com;Jane;"Acme, Inc."\r\njosé@bücher.example;José;Müller & Söhne\r\n';
    expect(await read(file, size)).toEqual([
      { header: ['E-Mail', 'Vorname', 'Firma'], delimiter: ';', line: 1 },
      { row: 1, line: 2, record: { 'E-Mail': 'jane@acme.com', Vorname: 'Jane', Firma: 'Acme, Inc.' } },
      { row: 2, line: 3, record: { 'E-Mail': 'josé@bücher.example', Vorname: 'José', Firma: 'Müller & Söhne' } },
    ]);
  });

  it('reads an Excel-style CRLF comma file with doubled quotes and no final line break', async () => {
    const file = 'Email,Company,Notes\r\nann@a.com,"Acme, Inc.","She said ""call me"""\r\nbob@b.com,Beta,';
    expect(await read(file, size)).toEqual([
      { header: ['Email', 'Company', 'Notes'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { Email: 'ann@a.com', Company: 'Acme, Inc.', Notes: 'She said "call me"' } },
      { row: 2, line: 3, record: { Email: 'bob@b.com', Company: 'Beta', Notes: '' } },
    ]);
  });

  it('keeps quoted multi-line notes whole and numbers the following rows by their first line', async () => {
    const file =
      'email,notes\r\nann@a.com,"met at the fair\r\nwants a demo\r\n\r\nin Q3"\r\nbob@b.com,"one\nline two"\r\ncid@c.com,plain\r\n';
    expect(await read(file, size)).toEqual([
      { header: ['email', 'notes'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', notes: 'met at the fair\r\nwants a demo\r\n\r\nin Q3' } },
      { row: 2, line: 6, record: { email: 'bob@b.com', notes: 'one\nline two' } },
      { row: 3, line: 8, record: { email: 'cid@c.com', notes: 'plain' } },
    ]);
  });

  it('skips blank lines, whitespace-only lines and delimiter-only lines without counting them as rows', async () => {
    const file = '\n\r\nemail,name\n\nann@a.com,Ann\n   \n,\n\r\nbob@b.com,Bob\n\n\n';
    expect(await read(file, size)).toEqual([
      { header: ['email', 'name'], delimiter: ',', line: 3 },
      { row: 1, line: 5, record: { email: 'ann@a.com', name: 'Ann' } },
      { row: 2, line: 9, record: { email: 'bob@b.com', name: 'Bob' } },
    ]);
  });

  it('reports a ragged row as an error for that row only and reads the rows after it', async () => {
    const file =
      'email,first_name,company\nann@a.com,Ann,Acme\nbob@b.com,Bob,Beta,extra\ncid@c.com,Cid\n"dan@d.com","Dan\nD.",Delta\neve@e.com,Eve,Echo\n';
    expect(await read(file, size)).toEqual([
      { header: ['email', 'first_name', 'company'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', first_name: 'Ann', company: 'Acme' } },
      { row: 2, line: 3, error: { code: 'column_count', message: 'expected 3 fields, found 4' } },
      { row: 3, line: 4, error: { code: 'column_count', message: 'expected 3 fields, found 2' } },
      { row: 4, line: 5, record: { email: 'dan@d.com', first_name: 'Dan\nD.', company: 'Delta' } },
      { row: 5, line: 7, record: { email: 'eve@e.com', first_name: 'Eve', company: 'Echo' } },
    ]);
  });

  it('passes duplicate rows through, leaving deduplication to the importer', async () => {
    const rows = (await read('email,name\nann@a.com,Ann\nann@a.com,Ann\nANN@A.COM,Ann\n', size)).slice(1);
    expect(rows).toEqual([
      { row: 1, line: 2, record: { email: 'ann@a.com', name: 'Ann' } },
      { row: 2, line: 3, record: { email: 'ann@a.com', name: 'Ann' } },
      { row: 3, line: 4, record: { email: 'ANN@A.COM', name: 'Ann' } },
    ]);
  });

  it('reads a tab-separated file whose cells hold commas and semicolons', async () => {
    expect(await read('email\tcompany\ttags\nann@a.com\tAcme, Inc.\tvip;q3\n', size)).toEqual([
      { header: ['email', 'company', 'tags'], delimiter: '\t', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', company: 'Acme, Inc.', tags: 'vip;q3' } },
    ]);
  });

  it('reads a file whose line endings change from CRLF to LF to CR', async () => {
    expect(await read('email,name\r\nann@a.com,Ann\nbob@b.com,Bob\rcid@c.com,Cid\r\n', size)).toEqual([
      { header: ['email', 'name'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', name: 'Ann' } },
      { row: 2, line: 3, record: { email: 'bob@b.com', name: 'Bob' } },
      { row: 3, line: 4, record: { email: 'cid@c.com', name: 'Cid' } },
    ]);
  });

  it('trims header names and leaves columns without a name out of records', async () => {
    expect(await read(' email ,,Name\nann@a.com,x,Ann\n', size)).toEqual([
      { header: ['email', '', 'Name'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', Name: 'Ann' } },
    ]);
  });

  it('keeps a quote inside an unquoted cell as text', async () => {
    expect((await read('email,notes\nann@a.com,wants a 27" screen\n', size))[1]).toEqual({
      row: 1,
      line: 2,
      record: { email: 'ann@a.com', notes: 'wants a 27" screen' },
    });
  });

  it('keeps a header named __proto__ as an ordinary key', async () => {
    const [, row] = await read('email,__proto__\nann@a.com,x\n', size);
    expect('record' in row && Object.hasOwn(row.record, '__proto__') && Object.getPrototypeOf(row.record)).toBe(
      Object.prototype,
    );
  });

  it('yields only the header for a header-only file, with or without a final line break', async () => {
    expect(await read('email,name', size)).toEqual([{ header: ['email', 'name'], delimiter: ',', line: 1 }]);
    expect(await read('email;name\r\n\r\n', size)).toEqual([{ header: ['email', 'name'], delimiter: ';', line: 1 }]);
  });

  it('skips an empty top row that Excel wrote as bare delimiters before the header', async () => {
    expect(await read(';;\r\n\r\nEmail;Name\r\njane@acme.com;Jane\r\n', size)).toEqual([
      { header: ['Email', 'Name'], delimiter: ';', line: 3 },
      { row: 1, line: 4, record: { Email: 'jane@acme.com', Name: 'Jane' } },
    ]);
  });

  it('reads a single-column file', async () => {
    expect(await read('Email\nann@a.com\n', size)).toEqual([
      { header: ['Email'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { Email: 'ann@a.com' } },
    ]);
  });
});

describe('readCsvRows sources', () => {
  it('reads a source of strings', async () => {
    async function* strings() {
      yield 'email;na';
      yield 'me\nann@a.com;Ann\n';
    }
    const items: CsvItem[] = [];
    for await (const item of readCsvRows(strings())) items.push(item);
    expect(items).toEqual([
      { header: ['email', 'name'], delimiter: ';', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com', name: 'Ann' } },
    ]);
  });
});

describe('readCsvRows on large chunks', () => {
  // The parser is fed at most 16 KiB at a time (so that few records are alive at once); a network read
  // or an inline file is larger, and its multi-byte characters fall across the cuts.
  const names = ['Zoë Ünïcødé', 'Łukasz Żółć', '王小明', 'Emoji 🎉 Party', 'Ω'];
  const text = `email,first_name\r\n${Array.from({ length: 3000 }, (_, i) => `p${i}@big.example,${names[i % names.length]}`).join('\r\n')}\r\n`;
  const expectRecords = (items: CsvItem[]) => {
    const rows = items.filter((item) => 'record' in item);
    expect(rows).toHaveLength(3000);
    rows.forEach((item, i) =>
      expect(item).toMatchObject({
        row: i + 1,
        record: { email: `p${i}@big.example`, first_name: names[i % names.length] },
      }),
    );
  };

  it('keeps every multi-byte character whole when one byte chunk holds the whole file', async () => {
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024);
    expectRecords(await read(text, Buffer.byteLength(text)));
  });

  it('keeps every multi-byte character whole when the file comes as one string', async () => {
    const items: CsvItem[] = [];
    for await (const item of readCsvRows(
      (async function* () {
        yield text;
      })(),
    ))
      items.push(item);
    expectRecords(items);
  });
});
