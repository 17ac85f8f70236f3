// Rows of sequence sending (sequences-send.ts), on PostgreSQL when DATABASE_URL is set and on embedded
// PGlite with fewer messages: messages per second from due to recorded at a fake Gmail over HTTP against
// a plain insert + update per message on the same database, and the database cost per message (round trips,
// counted at the wire; time the connections waited on the database) against the same baseline. Issue 32's
// goals: at most 4 round trips per message, which is a ratio of at most 2 to the baseline's exact 2 (an
// insert and an update, autocommitted), and at least 300 messages/s on PostgreSQL, an absolute figure of this
// machine, judged in a row of its own against that number.
import { meets, type Goal, type RowResult } from './row-runner.ts';
import { measureSending, type DbCost, type SendResult } from './sequences-send.ts';

export interface SequencesSettings {
  /** Messages due at once on PostgreSQL, and on PGlite (0 skips PGlite). */
  postgresMessages: number;
  pgliteMessages: number;
  /** SEQUENCE_SENDS_IN_FLIGHT values to measure, each a run of its own: the claim batch, the default, one at a time. */
  inFlight: number[];
  logLevel: string;
}

export interface SequencesResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const sequencesSettings = (quick: boolean, logLevel: string): SequencesSettings =>
  quick
    ? { postgresMessages: 1_000, pgliteMessages: 300, inFlight: IN_FLIGHT, logLevel }
    : { postgresMessages: 10_000, pgliteMessages: 2_000, inFlight: IN_FLIGHT, logLevel };

/**
 * The claim batch's default (all of a reservation but its first message at once), SEQUENCE_SENDS_IN_FLIGHT's
 * default with no pause (8), and one at a time (SEQUENCE_SENDS_IN_FLIGHT=1: the fewest `uncertain` after a crash).
 */
const IN_FLIGHT = [20, 8, 1];
const count = (n: number) => n.toLocaleString('en');
const GOALS = { roundTripsPerMessage: 4, postgresMessagesPerSecond: 300 };
/** The baseline's round trips per message: one insert and one update. */
const PLAIN_TRIPS = 2;
const perSecond = (n: number, ms: number) => n / (ms / 1000);
const labels = {
  rate: (db: string, n: number) =>
    `sequence messages/s, due → recorded at a fake Gmail over HTTP (${count(n)} due, spacing 0) ÷ plain insert + update per message/s (${db})`,
  goal: (db: string, n: number) =>
    `sequence messages/s, due → recorded (${count(n)} due, ${db}) ÷ the issue's ${GOALS.postgresMessagesPerSecond} messages/s (absolute, this machine)`,
  trips: (db: string, n: number) =>
    `database round trips per sequence message (${count(n)}) ÷ per plain insert + update (${db}; goal ≤ ${GOALS.roundTripsPerMessage} per message)`,
  busy: (db: string, n: number) =>
    `database time per sequence message (${count(n)}) ÷ per plain insert + update (${db})`,
};

export async function sequencesRows(
  settings: SequencesSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<SequencesResult> {
  const result: SequencesResult = { rows: [], notes: [], failed: false };
  const runs: Array<[string, string | undefined, number, number]> = [];
  for (const inFlight of settings.inFlight) {
    const sends = `${inFlight} in flight per mailbox`;
    if (databaseUrl) runs.push([`PostgreSQL, ${sends}`, databaseUrl, settings.postgresMessages, inFlight]);
    if (settings.pgliteMessages > 0) runs.push([`PGlite, ${sends}`, undefined, settings.pgliteMessages, inFlight]);
  }
  for (const [name, url, n, inFlight] of runs) {
    try {
      const r = await measureSending(url, n, inFlight, settings.logLevel, progress);
      result.rows.push(rateRow(labels.rate(name, n), r));
      if (url) result.rows.push(goalRow(labels.goal(name, n), r));
      result.rows.push(...costRows(name, r));
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

function goalRow(label: string, r: SendResult): RowResult {
  const send = perSecond(r.messages, r.sendMs);
  const goal: Goal = { op: '>=', value: 1 };
  const ratio = send / GOALS.postgresMessagesPerSecond;
  return {
    label,
    a: `${count(Math.round(send))} messages/s`,
    b: `${GOALS.postgresMessagesPerSecond} messages/s`,
    ratio,
    goal,
    met: meets(ratio, goal),
  };
}

function costRows(db: string, r: SendResult): RowResult[] {
  const each = (c: DbCost) => ({ trips: c.roundTrips / r.messages, ms: c.busyMs / r.messages });
  const s = each(r.sendDb);
  const p = each(r.plainDb);
  const tripsGoal: Goal = { op: '<=', value: GOALS.roundTripsPerMessage / PLAIN_TRIPS };
  const trips = s.trips / p.trips;
  return [
    {
      label: labels.trips(db, r.messages),
      a: `${s.trips.toFixed(2)} round trips`,
      b: `${p.trips.toFixed(2)} round trips`,
      ratio: trips,
      goal: tripsGoal,
      met: meets(trips, tripsGoal),
    },
    { label: labels.busy(db, r.messages), a: `${s.ms.toFixed(2)} ms`, b: `${p.ms.toFixed(2)} ms`, ratio: s.ms / p.ms },
  ];
}

function note(name: string, r: SendResult): string {
  const db = `; the service's connections waited on the database ${(r.sendDb.busyMs / 1000).toFixed(1)} s of it (${((100 * r.sendDb.busyMs) / r.sendMs).toFixed(0)}%), over ${count(r.sendDb.roundTrips)} round trips, and this process (service, fake Gmail and metering proxy) used ${(r.sendCpuMs / r.messages).toFixed(2)} ms of CPU per message`;
  return `${name} sequence sending: ${count(r.messages)} messages due at once sent in ${(r.sendMs / 1000).toFixed(1)} s (dispatch; claims of 20; each group of messages in flight checked and moved to sending in one statement each, its Gmail calls made at once, its outcomes recorded in one transaction)${db}; the plain insert + update of as many rows took ${(r.plainMs / 1000).toFixed(1)} s, one autocommit statement at a time.`;
}

const missing = (label: string, why: string): RowResult => ({ label, a: why, b: '—', ratio: Number.NaN });
