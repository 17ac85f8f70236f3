import { describe, expect, it, vi } from 'vitest';
import { CsvFileError } from '../../../src/handlers/leads/csv-file-error.ts';
import { readCsvRows, type CsvItem, type ReadCsvOptions } from '../../../src/handlers/leads/csv-rows.ts';

async function* bytes(text: string, size = 64): AsyncGenerator<Uint8Array> {
  const buffer = new TextEncoder().encode(text);
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

/** The items read before the file failed, and the failure. */
async function readUntilFailure(
  source: AsyncIterable<Uint8Array | string>,
  options?: ReadCsvOptions,
): Promise<{ items: CsvItem[]; error: unknown }> {
  const items: CsvItem[] = [];
  try {
    for await (const item of readCsvRows(source, options)) items.push(item);
  } catch (error) {
    return { items, error };
  }
  throw new Error('the file was read without an error');
}

describe('readCsvRows file errors', () => {
  it('yields the rows before an unclosed quote, then throws malformed_quote naming the line where the record starts', async () => {
    const file =
      'email,notes\r\nann@a.com,"two\r\nlines"\r\n\r\nbob@b.com,ok\r\n\r\ncid@c.com,"never closed\r\ndan@d.com,x\r\n';
    const { items, error } = await readUntilFailure(bytes(file, 5));
    expect(items.map((item) => ('row' in item ? item.row : 'header'))).toEqual(['header', 1, 2]);
    expect(error).toBeInstanceOf(CsvFileError);
    expect(error).toMatchObject({
      code: 'malformed_quote',
      line: 7,
      message: 'line 7: a quoted field starting in this record is never closed',
    });
  });

  it('throws malformed_quote for an unclosed quote in the header', async () => {
    const { items, error } = await readUntilFailure(bytes('\n"email,name\nann@a.com,Ann\n'));
    expect(items).toEqual([]);
    expect(error).toMatchObject({ code: 'malformed_quote', line: 2 });
  });

  it('throws record_too_large when a record outgrows maxRecordBytes, bounding a runaway quote', async () => {
    const file = `email,notes\nann@a.com,ok\nbob@b.com,"${'x'.repeat(5000)}\ncid@c.com,ok\n`;
    const { items, error } = await readUntilFailure(bytes(file), { maxRecordBytes: 1000 });
    expect(items).toHaveLength(2);
    expect(error).toMatchObject({ code: 'record_too_large', line: 3 });
  });

  it('throws duplicate_header when two columns share a name', async () => {
    const { items, error } = await readUntilFailure(bytes('email,Name, email \nann@a.com,Ann,x\n'));
    expect(items).toEqual([]);
    expect(error).toMatchObject({
      code: 'duplicate_header',
      line: 1,
      message: 'line 1: the header names the column "email" twice',
    });
  });

  it('allows several columns without a name', async () => {
    const items: CsvItem[] = [];
    for await (const item of readCsvRows(bytes('email,,\nann@a.com,x,y\n'))) items.push(item);
    expect(items).toEqual([
      { header: ['email', '', ''], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com' } },
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['a file of blank lines', '\r\n\n\r\n'],
    ['a BOM alone', '\ufeff'],
  ])('throws empty_file for %s', async (_, file) => {
    expect((await readUntilFailure(bytes(file, 1))).error).toMatchObject({ code: 'empty_file', line: 1 });
  });

  it('throws header_too_long when no header line ends in the first 64 KiB, and closes the source', async () => {
    let closed = false;
    async function* endless() {
      try {
        for (;;) yield 'x'.repeat(1024);
      } finally {
        closed = true;
      }
    }
    expect((await readUntilFailure(endless())).error).toMatchObject({ code: 'header_too_long', line: 1 });
    expect(closed).toBe(true);
  });

  it('reads exactly maxRows rows, and throws too_many_rows at the first row beyond', async () => {
    const file = 'email\na@a.com\n\nb@b.com\nc@c.com\n';
    const items: CsvItem[] = [];
    for await (const item of readCsvRows(bytes('email\na@a.com\n\nb@b.com\n'), { maxRows: 2 })) items.push(item);
    expect(items).toHaveLength(3);
    const { items: before, error } = await readUntilFailure(bytes(file), { maxRows: 2 });
    expect(before).toHaveLength(3);
    expect(error).toMatchObject({ code: 'too_many_rows', line: 5, message: 'line 5: the file holds more than 2 rows' });
  });

  it('rethrows an error of the source after the rows completed before it', async () => {
    const failure = new Error('connection reset');
    async function* broken() {
      yield 'email\nann@a.com\n';
      yield 'bob@b.com\n';
      throw failure;
    }
    const { items, error } = await readUntilFailure(broken());
    expect(items.slice(0, 2)).toEqual([
      { header: ['email'], delimiter: ',', line: 1 },
      { row: 1, line: 2, record: { email: 'ann@a.com' } },
    ]);
    expect(error).toBe(failure);
  });

  it('stops pulling from an endless source and closes it when the consumer stops early', async () => {
    let pulledBytes = 0;
    let closed = false;
    async function* endless() {
      try {
        yield 'email\n';
        for (let n = 0; ; n++) {
          const line = `lead${n}@a.com\n`;
          pulledBytes += line.length;
          yield line;
        }
      } finally {
        closed = true;
      }
    }
    for await (const item of readCsvRows(endless())) {
      if ('row' in item && item.row === 10) break;
    }
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000 });
    // What the stream buffers hold (the default highWaterMark: 16 KiB up to Node 20, 64 KiB from Node 22), not
    // the endless source: a reader that kept pulling would never get here.
    expect(pulledBytes).toBeLessThan(256 * 1024);
  });
});
