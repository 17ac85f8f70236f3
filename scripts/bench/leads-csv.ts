// Generated leads for the import rows, made on the fly so that a file of any size costs no memory:
// the same rows as values (for the plain-insert baseline) or as CSV text (email, first_name,
// last_name, company, title, tags), and a node:http server in the bench process that streams a CSV
// of N rows from /leads.csv?rows=N&prefix=P, as a csv_url for the service to fetch.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface LeadValues {
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  title: string;
  /** Separated by ";", as in a CSV cell. */
  tags: string;
}

export const CSV_HEADER = 'email,first_name,last_name,company,title,tags';
/** Rows per chunk of CSV text written to the socket. */
const CSV_CHUNK_ROWS = 500;

const FIRST = ['Ada', 'Grace', 'Lin', 'Omar', 'Priya', 'Jonas', 'Mei', 'Tomás', 'Aisha', 'Noah', 'Sofia', 'Kenji'];
const LAST = ['Lovelace', 'Hopper', 'Okafor', 'Schmidt', 'Nakamura', 'Silva', 'Kowalski', 'Haddad', 'Larsen', 'Moreau'];
const TITLES = [
  'Head of Marketing',
  'VP Sales',
  'Growth Lead',
  'Founder',
  'Demand Generation Manager',
  'CMO',
  'Account Executive',
];
const SUFFIXES = ['Inc.', 'GmbH', 'Ltd', 'LLC', 'S.A.'];

/** Row `i` (from 0) of the file with this prefix; emails are unique per (prefix, i). */
export function leadValues(prefix: string, i: number): LeadValues {
  return {
    email: `${prefix}.${i}@leads-${i % 97}.example`,
    first_name: FIRST[i % FIRST.length],
    last_name: LAST[(i * 7) % LAST.length],
    // A comma in every company name, so the CSV has quoted fields as real exports do.
    company: `Company ${i % 1009}, ${SUFFIXES[i % SUFFIXES.length]}`,
    title: TITLES[(i * 3) % TITLES.length],
    tags: `bench;segment-${i % 5}`,
  };
}

const quoted = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export function csvLine(v: LeadValues): string {
  return `${v.email},${quoted(v.first_name)},${quoted(v.last_name)},${quoted(v.company)},${quoted(v.title)},${quoted(v.tags)}\r\n`;
}

/** The CSV text of `rows` rows, header first, in chunks of CSV_CHUNK_ROWS rows. */
export function* csvChunks(prefix: string, rows: number): Generator<string> {
  yield `${CSV_HEADER}\r\n`;
  for (let start = 0; start < rows; start += CSV_CHUNK_ROWS) {
    let text = '';
    for (let i = start; i < Math.min(rows, start + CSV_CHUNK_ROWS); i += 1) text += csvLine(leadValues(prefix, i));
    yield text;
  }
}

/** The same rows as values, `size` at a time. */
export function* valueBatches(prefix: string, rows: number, size: number): Generator<LeadValues[]> {
  for (let start = 0; start < rows; start += size) {
    const batch: LeadValues[] = [];
    for (let i = start; i < Math.min(rows, start + size); i += 1) batch.push(leadValues(prefix, i));
    yield batch;
  }
}

export interface CsvServer {
  /** The csv_url of a file of `rows` rows whose emails start with `prefix`. */
  url(prefix: string, rows: number): string;
  /** Milliseconds this process spent generating CSV text so far (it runs beside an in-process service). */
  generatingMs(): number;
  close(): Promise<void>;
}

export async function startCsvServer(): Promise<CsvServer> {
  let generatingMs = 0;
  function* timed(chunks: Generator<string>): Generator<string> {
    for (;;) {
      const started = performance.now();
      const next = chunks.next();
      generatingMs += performance.now() - started;
      if (next.done) return;
      yield next.value;
    }
  }
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const rows = Number(query.get('rows'));
    const prefix = query.get('prefix') ?? '';
    if (!Number.isInteger(rows) || rows < 0 || !/^[a-z0-9-]+$/.test(prefix)) {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
    // pipe() waits for the socket to drain, so only a few chunks are ever held, whatever the size.
    Readable.from(timed(csvChunks(prefix, rows)), { objectMode: false }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (prefix, rows) => `${base}/leads.csv?rows=${rows}&prefix=${prefix}`,
    generatingMs: () => generatingMs,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
