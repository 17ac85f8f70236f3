// Rows of long work (background jobs and operations), measured in this process after the HTTP rounds,
// on embedded PGlite always and on PostgreSQL when DATABASE_URL is set: jobs per second end to end
// against plain write transactions per second (jobs-throughput.ts), and the wake-up latency of a
// waiting get_operation against a plain get_operation round trip (wake-latency.ts). Each database is
// a fresh one (bench-database.ts) shared by both measurements, and each ratio's two sides come from
// the same database in the same run.
import { migrate } from '../../src/db/migrate.ts';
import { measureJobsThroughput, type ThroughputResult } from './jobs-throughput.ts';
import { openBenchDatabase } from './bench-database.ts';
import type { RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';
import { measureWakeLatency, type WakeResult } from './wake-latency.ts';

export interface LongWorkSettings {
  /** Jobs per round (and write transactions per round of the baseline). */
  jobs: number;
  jobRounds: number;
  concurrency: number;
  /** Wake-up samples, after `warmupSamples` thrown away. */
  samples: number;
  warmupSamples: number;
  logLevel: string;
}

export interface LongWorkResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const longWorkSettings = (quick: boolean, logLevel: string): LongWorkSettings =>
  quick
    ? { jobs: 300, jobRounds: 2, concurrency: 10, samples: 30, warmupSamples: 3, logLevel }
    : { jobs: 2000, jobRounds: 5, concurrency: 10, samples: 200, warmupSamples: 10, logLevel };

const labels = {
  jobs: (db: string) => `jobs/s end to end ÷ plain write transactions/s (${db})`,
  wake: (db: string) => `waiting \`get_operation\` wake-up ÷ plain \`get_operation\` round trip (${db})`,
};

export async function longWorkRows(
  settings: LongWorkSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<LongWorkResult> {
  const result: LongWorkResult = { rows: [], notes: [], failed: false };
  const databases: Array<[string, string | undefined]> = [
    ['PGlite', undefined],
    ...(databaseUrl ? [['PostgreSQL', databaseUrl] as [string, string]] : []),
  ];
  for (const [name, url] of databases) {
    try {
      const measured = await measureOn(name, url, settings, progress);
      result.rows.push(measured.jobs, measured.wake);
      result.notes.push(...measured.notes);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.failed = true;
      result.rows.push(
        missing(labels.jobs(name), 'failed (see notes)'),
        missing(labels.wake(name), 'failed (see notes)'),
      );
      result.notes.push(`Long-work rows on ${name} failed: ${message}`);
    }
  }
  if (!databaseUrl)
    result.rows.push(
      missing(labels.jobs('PostgreSQL'), 'skipped: no DATABASE_URL'),
      missing(labels.wake('PostgreSQL'), 'skipped: no DATABASE_URL'),
    );
  return result;
}

async function measureOn(
  name: string,
  databaseUrl: string | undefined,
  settings: LongWorkSettings,
  progress: (line: string) => void,
) {
  const db = await openBenchDatabase(databaseUrl);
  try {
    await migrate(db.sql);
    progress(
      `jobs throughput on ${name}: ${settings.jobRounds} rounds of ${settings.jobs} jobs and ${settings.jobs} write transactions`,
    );
    const throughput = await measureJobsThroughput(db, {
      jobs: settings.jobs,
      concurrency: settings.concurrency,
      rounds: settings.jobRounds,
      progress,
    });
    progress(`get_operation wake-up on ${name}: ${settings.samples} samples`);
    const wake = await measureWakeLatency(db, {
      samples: settings.samples,
      warmup: settings.warmupSamples,
      logLevel: settings.logLevel,
    });
    return {
      jobs: jobsRow(labels.jobs(name), throughput),
      wake: wakeRow(labels.wake(name), wake),
      notes: notesFor(name, throughput, wake),
    };
  } finally {
    await db.close();
  }
}

function jobsRow(label: string, r: ThroughputResult): RowResult {
  const perRound = r.jobsPerSecond.map((value, i) => value / r.writesPerSecond[i]);
  return {
    label,
    a: `${Math.round(median(r.jobsPerSecond))} jobs/s`,
    b: `${Math.round(median(r.writesPerSecond))} tx/s`,
    ratio: median(r.jobsPerSecond) / median(r.writesPerSecond),
    spread: [quantile(perRound, 0.25), quantile(perRound, 0.75)],
  };
}

function wakeRow(label: string, r: WakeResult): RowResult {
  const perSample = r.wakeMs.map((value, i) => value / r.plainMs[i]);
  return {
    label,
    a: `${ms(median(r.wakeMs))} (p95 ${ms(quantile(r.wakeMs, 0.95))})`,
    b: `${ms(median(r.plainMs))} (p95 ${ms(quantile(r.plainMs, 0.95))})`,
    ratio: median(r.wakeMs) / median(r.plainMs),
    spread: [quantile(perSample, 0.25), quantile(perSample, 0.75)],
  };
}

function notesFor(name: string, t: ThroughputResult, w: WakeResult): string[] {
  const list = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
  return [
    `${name} jobs: per round ${list(t.jobsPerSecond)} jobs/s end to end (enqueue alone ${list(t.enqueuePerSecond)} jobs/s) against ${list(t.writesPerSecond)} write transactions/s.`,
    `${name} wake-up: p95 ratio ${(quantile(w.wakeMs, 0.95) / quantile(w.plainMs, 0.95)).toFixed(2)}; from the progress change committed to the answer, median ${ms(median(w.afterChangeMs))} (p95 ${ms(quantile(w.afterChangeMs, 0.95))}), ${(median(w.afterChangeMs) / median(w.plainMs)).toFixed(2)} × the plain round trip; ${w.wakeMs.length} samples.`,
  ];
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

const missing = (label: string, why: string): RowResult => ({ label, a: why, b: '—', ratio: Number.NaN });
