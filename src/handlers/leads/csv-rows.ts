// Streams the rows of a CSV file through csv-parse without holding the file or its rows: the delimiter
// is read off the header line, each data row comes out as a record keyed by header name or as a row
// error, and only faults that leave the rest of the file unreadable are thrown (CsvFileError).
import { Readable, pipeline } from 'node:stream';
import type { CsvError, Parser } from 'csv-parse';
import { loadOnce } from '../../load-once.ts';
import { CsvFileError } from './csv-file-error.ts';
import { BLANK_LINE, continueFrom, detectDelimiter, readHead, type Chunk, type CsvDelimiter } from './csv-input.ts';

/**
 * Always the first item readCsvRows yields. `header` holds the trimmed names in file order, '' for a
 * column without a name: such columns are left out of records.
 */
export interface CsvHeader {
  header: string[];
  delimiter: CsvDelimiter;
  /** 1-based line of the header (after any leading blank lines). */
  line: number;
}

/**
 * One non-blank data row. `row` counts data rows from 1 (header and blank lines excluded; rows with an
 * error included); `line` is the 1-based line on which the row starts.
 */
export type CsvRow =
  | { row: number; line: number; record: Record<string, string> }
  | { row: number; line: number; error: { code: 'column_count'; message: string } };

export type CsvItem = CsvHeader | CsvRow;

/** A CsvRow with its fields in header order (readCsvFields): no object per row. */
export type CsvFieldsRow =
  | { row: number; line: number; fields: string[] }
  | { row: number; line: number; error: { code: 'column_count'; message: string } };

export interface ReadCsvOptions {
  /** More data rows than this throw `too_many_rows` when the first extra row is reached (default: no limit). */
  maxRows?: number;
  /** A record larger than this throws `record_too_large`; it also bounds an unclosed quote (default 1 MiB). */
  maxRecordBytes?: number;
}

/** csv-parse, loaded at the first file read (src/load-once.ts). */
const csvParse = loadOnce(() => import('csv-parse'));

/**
 * Yields the CsvHeader, then one CsvRow per non-blank data row, in order. A line of only spaces or
 * delimiters counts as blank. Thrown: CsvFileError, or whatever `source` throws (after the records
 * completed before it; csv-parse holds back a chunk's last bytes, so the record in progress is dropped).
 * The source is read as the rows are consumed, a few KiB ahead, and closed when the consumer stops.
 */
export async function* readCsvRows(
  source: AsyncIterable<Chunk>,
  options: ReadCsvOptions = {},
): AsyncGenerator<CsvItem> {
  let named: [string, number][] = [];
  for await (const item of readCsvFields(source, options)) {
    if ('header' in item)
      named = item.header.flatMap((name, index): [string, number][] => (name === '' ? [] : [[name, index]]));
    yield 'fields' in item ? { row: item.row, line: item.line, record: keyed(named, item.fields) } : item;
  }
}

/** readCsvRows with each row's fields in header order instead of a record keyed by header name. */
export async function* readCsvFields(
  source: AsyncIterable<Chunk>,
  options: ReadCsvOptions = {},
): AsyncGenerator<CsvHeader | CsvFieldsRow> {
  for await (const group of readCsvFieldGroups(source, options)) yield* group;
}

/**
 * readCsvFields in groups, as many rows at a time as the parser holds: a step of an async generator per
 * row cost a tenth of an import's thread (more while a transaction keeps the async context on).
 * A fault is thrown after the group of the rows before it.
 */
export async function* readCsvFieldGroups(
  source: AsyncIterable<Chunk>,
  options: ReadCsvOptions = {},
): AsyncGenerator<Array<CsvHeader | CsvFieldsRow>> {
  const maxRows = options.maxRows ?? Infinity;
  const iterator = source[Symbol.asyncIterator]();
  const csv = await csvParse();
  const { head, headerLine } = await readHead(iterator).catch(async (error: unknown) => {
    await iterator.return?.();
    throw error;
  });
  const delimiter = detectDelimiter(headerLine);
  // No info/raw options: they cost a third of the throughput, and csv-parse's line count drifts on
  // CRLF inside quotes. Blank lines come through as records so that every line is counted here.
  const parser = csv.parse({
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    max_record_size: options.maxRecordBytes ?? 1024 * 1024,
  });
  pipeline(Readable.from(continueFrom(head, iterator), { highWaterMark: 1 }), parser, () => {});
  let header: string[] | undefined;
  let row = 0;
  let line = 1;
  try {
    for await (const records of drain(parser)) {
      const group: Array<CsvHeader | CsvFieldsRow> = [];
      for (const record of records) {
        const start = line;
        line += linesSpanned(record);
        if (!header) {
          if (BLANK_LINE.test(record.join(delimiter))) continue;
          header = readHeader(record, start);
          group.push({ header, delimiter, line: start });
        } else if (!isBlank(record)) {
          if (++row > maxRows) {
            if (group.length > 0) yield group;
            throw new CsvFileError('too_many_rows', start, `the file holds more than ${maxRows} rows`);
          }
          group.push(
            record.length === header.length
              ? { row, line: start, fields: record }
              : {
                  row,
                  line: start,
                  error: { code: 'column_count', message: `expected ${header.length} fields, found ${record.length}` },
                },
          );
        }
      }
      if (group.length > 0) yield group;
    }
  } catch (error) {
    throw fileError(error, line, parser, csv.CsvError);
  } finally {
    parser.destroy();
  }
}

function isBlank(record: readonly string[]): boolean {
  for (const field of record) if (field.trim() !== '') return false;
  return true;
}

/** The named columns of one record (a plain loop: this runs once per row of the file). */
function keyed(named: ReadonlyArray<[string, number]>, record: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, index] of named) {
    // Assigning "__proto__" would set the prototype instead of adding the column.
    if (name === '__proto__')
      Object.defineProperty(out, name, { value: record[index], enumerable: true, writable: true, configurable: true });
    else out[name] = record[index];
  }
  return out;
}

function readHeader(record: string[], line: number): string[] {
  const header = record.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (name !== '' && seen.has(name))
      throw new CsvFileError('duplicate_header', line, `the header names the column "${name}" twice`);
    seen.add(name);
  }
  return header;
}

/**
 * The parsed records, as many at a time as the parser holds (an async step per record cost time:
 * csvItems + normalizeLead went from 105–115k to 120–140k rows/s on 100,000 rows), read so that
 * none is lost when the parser fails: the records before a fault come out first, then the fault is thrown.
 */
async function* drain(parser: Parser): AsyncGenerator<string[][]> {
  let wake: (() => void) | undefined;
  const notify = () => wake?.();
  parser.on('readable', notify).on('end', notify).on('close', notify).on('error', notify);
  for (;;) {
    const records: string[][] = [];
    let record: string[] | null;
    while ((record = parser.read() as string[] | null) !== null) records.push(record);
    // Read again after the consumer took its rows: the end is seen only by a read on a drained parser.
    if (records.length > 0) {
      yield records;
      continue;
    }
    if (parser.errored) throw parser.errored;
    if (parser.readableEnded || parser.destroyed) return;
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** A csv-parse fault as a CsvFileError naming the line where the failing record starts; others as they are. */
function fileError(error: unknown, line: number, parser: Parser, csvError: typeof CsvError): unknown {
  if (!(error instanceof csvError)) return error;
  const cause = { cause: error };
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new CsvFileError('malformed_quote', line, 'a quoted field starting in this record is never closed', cause);
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'INVALID_OPENING_QUOTE':
      return new CsvFileError('malformed_quote', line, `a misplaced quote: ${error.message}`, cause);
    case 'CSV_MAX_RECORD_SIZE':
      return new CsvFileError(
        'record_too_large',
        line,
        `the record is larger than ${parser.options.max_record_size} bytes, often because a quote is never closed`,
        cause,
      );
    default:
      return new CsvFileError('malformed_csv', line, error.message, cause);
  }
}

/** Lines a record spans: one, plus the line breaks inside its (quoted) fields. */
function linesSpanned(record: string[]): number {
  let lines = 1;
  for (const field of record) {
    if (field.includes('\n') || field.includes('\r')) lines += field.match(/\r\n|\r|\n/g)!.length;
  }
  return lines;
}
