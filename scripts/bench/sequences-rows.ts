// Rows of sequence sending (sequences-send.ts), on PostgreSQL when DATABASE_URL is set and on embedded
// PGlite with fewer messages: messages per second from due to recorded at a fake Gmail over HTTP against
// a plain insert + update per message on the same database, and on PostgreSQL the database cost per
// message (round trips; time the connections waited on the database) against the same baseline.
import type { RowResult } from './row-runner.ts';
import { measureSending, type DbCost, type SendResult } from './sequences-send.ts';

export interface SequencesSettings {
  /** Messages due at once on PostgreSQL, and on PGlite (0 skips PGlite). */
  postgresMessages: number;
  pgliteMessages: number;
  logLevel: string;
}

export interface SequencesResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const sequencesSettings = (quick: boolean, logLevel: string): SequencesSettings =>
  quick
    ? { postgresMessages: 1_000, pgliteMessages: 300, logLevel }
    : { postgresMessages: 10_000, pgliteMessages: 2_000, logLevel };

const count = (n: number) => n.toLocaleString('en');
const perSecond = (n: number, ms: number) => n / (ms / 1000);
const labels = {
  rate: (db: string, n: number) =>
    `sequence messages/s, due → recorded at a fake Gmail over HTTP (${count(n)} due, spacing 0) ÷ plain insert + update per message/s (${db})`,
  trips: (n: number) =>
    `database round trips per sequence message (${count(n)}) ÷ per plain insert + update (PostgreSQL)`,
  busy: (n: number) => `database time per sequence message (${count(n)}) ÷ per plain insert + update (PostgreSQL)`,
};

export async function sequencesRows(
  settings: SequencesSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<SequencesResult> {
  const result: SequencesResult = { rows: [], notes: [], failed: false };
  const runs: Array<[string, string | undefined, number]> = [];
  if (databaseUrl) runs.push(['PostgreSQL', databaseUrl, settings.postgresMessages]);
  if (settings.pgliteMessages > 0) runs.push(['PGlite', undefined, settings.pgliteMessages]);
  for (const [name, url, n] of runs) {
    try {
      const r = await measureSending(url, n, settings.logLevel, progress);
      result.rows.push(rateRow(labels.rate(name, n), r));
      if (r.sendDb && r.plainDb) result.rows.push(...costRows(r, r.sendDb, r.plainDb));
      result.notes.push(note(name, r));
    } catch (error) {
      result.failed = true;
      result.rows.push(missing(labels.rate(name, n), 'failed (see notes)'));
      result.notes.push(
        `Sequence sending on ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (!databaseUrl)
    result.rows.push(missing(labels.rate('PostgreSQL', settings.postgresMessages), 'skipped: no DATABASE_URL'));
  return result;
}

function rateRow(label: string, r: SendResult): RowResult {
  const send = perSecond(r.messages, r.sendMs);
  const plain = perSecond(r.messages, r.plainMs);
  return {
    label,
    a: `${count(Math.round(send))} messages/s`,
    b: `${count(Math.round(plain))} rows/s`,
    ratio: send / plain,
  };
}

function costRows(r: SendResult, send: DbCost, plain: DbCost): RowResult[] {
  const each = (c: DbCost) => ({ trips: c.roundTrips / r.messages, ms: c.busyMs / r.messages });
  const s = each(send);
  const p = each(plain);
  return [
    {
      label: labels.trips(r.messages),
      a: `${s.trips.toFixed(1)} round trips`,
      b: `${p.trips.toFixed(1)} round trips`,
      ratio: s.trips / p.trips,
    },
    { label: labels.busy(r.messages), a: `${s.ms.toFixed(2)} ms`, b: `${p.ms.toFixed(2)} ms`, ratio: s.ms / p.ms },
  ];
}

function note(name: string, r: SendResult): string {
  const db = r.sendDb
    ? `; the service's connections waited on the database ${(r.sendDb.busyMs / 1000).toFixed(1)} s of it (${((100 * r.sendDb.busyMs) / r.sendMs).toFixed(0)}%), over ${count(r.sendDb.roundTrips)} round trips`
    : '';
  return `${name} sequence sending: ${count(r.messages)} messages due at once sent in ${(r.sendMs / 1000).toFixed(1)} s (dispatch, claims in batches, one transaction before and one after each Gmail call)${db}; the plain insert + update of as many rows took ${(r.plainMs / 1000).toFixed(1)} s, one autocommit statement at a time.`;
}

const missing = (label: string, why: string): RowResult => ({ label, a: why, b: '—', ratio: Number.NaN });
