// Lead CSV files for the fault tests, with the counts a complete import of any prefix must give,
// and a server that sends the first part of a file and holds the rest back until the test says so,
// so that a test knows which batches an import can have written when it cancels or kills it.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExpectedCounts {
  total: number;
  created: number;
  updated: number;
  skipped_duplicate: number;
  invalid: number;
}

export interface LeadsCsv {
  /** The header, then one line per data row (row n is lines[n]). */
  lines: string[];
  /** The addresses of the data rows, in order. */
  emails: string[];
}

/**
 * `count` rows of distinct addresses under `domain`, except that every 997th row has a broken
 * address and every 250th copies the address of the row 4,321 before it (in an earlier batch).
 */
export function leadsCsv(domain: string, count: number): LeadsCsv {
  const emails: string[] = [];
  for (let row = 1; row <= count; row += 1) {
    if (row % 997 === 0) emails.push(`broken-${row}`);
    else if (row % 250 === 0 && row > 4_321) emails.push(emails[row - 4_321 - 1]);
    else emails.push(`p${row}@${domain}`);
  }
  return { lines: ['email,first_name', ...emails.map((email, i) => `${email},P${i + 1}`)], emails };
}

/** What importing the first `rows` rows into a workspace without these addresses counts (on_conflict skip). */
export function expectedCounts(csv: LeadsCsv, rows = csv.emails.length): ExpectedCounts {
  const seen = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  for (const email of csv.emails.slice(0, rows)) {
    if (!email.includes('@')) invalid += 1;
    else if (seen.has(email)) duplicates += 1;
    else seen.add(email);
  }
  return { total: rows, created: seen.size, updated: 0, skipped_duplicate: duplicates, invalid };
}

export interface HeldCsvServer {
  url: string;
  /** Lets the first request's response go on past the held point. */
  release(): void;
  close(): Promise<void>;
}

const write = (res: ServerResponse, lines: string[]) => {
  for (let i = 0; i < lines.length; i += 1_000) res.write(`${lines.slice(i, i + 1_000).join('\r\n')}\r\n`);
};

/** Serves `csv`: the first request gets the header and `holdAfter` rows, then the rest after release(); later ones all of it at once. */
export async function serveHeldCsv(csv: LeadsCsv, holdAfter: number): Promise<HeldCsvServer> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/csv' });
    if (requests > 1) {
      write(res, csv.lines);
      res.end();
      return;
    }
    write(res, csv.lines.slice(0, holdAfter + 1));
    void released.then(() => {
      if (res.destroyed) return;
      write(res, csv.lines.slice(holdAfter + 1));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads.csv`,
    release,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
