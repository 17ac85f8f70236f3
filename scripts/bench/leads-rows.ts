// Rows of the lead import, measured after the knowledge rows, on embedded PGlite always and on
// PostgreSQL when DATABASE_URL is set: import rows per second end to end through the API against a
// plain unnest insert of the same rows into the same table, leads (leads-import.ts, the service in this
// process), and the service's peak RSS while importing a large csv_url against its idle RSS
// (leads-memory.ts, the service in a child process on its own fresh database). Absolute figures
// stand beside the ratios for information; the issue's absolute goals go to the notes, never to
// "met?".
import { migrate } from '../../src/db/migrate.ts';
import { openBenchDatabase } from './bench-database.ts';
import { measureImport, type ImportResult } from './leads-import.ts';
import { measureImportMemory, SAMPLE_MS, type MemoryResult } from './leads-memory.ts';
import type { RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';

export interface LeadsSettings {
  /** Rows per import round (and per round of the plain insert). */
  importRows: number;
  importRounds: number;
  /** Rows of the csv_url imported while the service's memory is watched. */
  memoryRows: number;
  logLevel: string;
  /** leads-main.ts only: measure PostgreSQL alone (memoryRows 0 skips the memory rows). */
  skipPglite?: boolean;
}

export interface LeadsResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const leadsSettings = (quick: boolean, logLevel: string): LeadsSettings =>
  quick
    ? { importRows: 20_000, importRounds: 1, memoryRows: 100_000, logLevel }
    : { importRows: 100_000, importRounds: 3, memoryRows: 1_000_000, logLevel };

/** The issue's goals, absolute and so for information only. */
const GOALS = { postgresRowsPerSecond: 100_000, copyRatio: 0.5, mbAboveIdle: 150 };

const count = (n: number) => n.toLocaleString('en');
const labels = {
  import: (db: string, rows: number) =>
    `import rows/s end to end (csv_url, ${count(rows)} rows) ÷ plain unnest insert into leads rows/s (${db})`,
  copy: (rows: number) =>
    `import rows/s end to end (csv_url, ${count(rows)} rows) ÷ psql \\copy of the same file into the same indexed table rows/s (PostgreSQL)`,
  memory: (db: string, rows: number) => `service peak RSS importing a ${count(rows)}-row csv_url ÷ idle RSS (${db})`,
};

export async function leadsRows(
  settings: LeadsSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<LeadsResult> {
  const result: LeadsResult = { rows: [], notes: [], failed: false };
  const databases: Array<[string, string | undefined]> = [
    ...(settings.skipPglite ? [] : [['PGlite', undefined] as [string, undefined]]),
    ...(databaseUrl ? [['PostgreSQL', databaseUrl] as [string, string]] : []),
  ];
  const attempt = async (label: string, what: string, measure: () => Promise<{ row: RowResult; notes: string[] }>) => {
    try {
      const measured = await measure();
      result.rows.push(measured.row);
      result.notes.push(...measured.notes);
    } catch (error) {
      result.failed = true;
      result.rows.push(missing(label, 'failed (see notes)'));
      result.notes.push(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let copied: ImportResult | undefined;
  for (const [name, url] of databases) {
    await attempt(labels.import(name, settings.importRows), `Lead import rows on ${name}`, async () => {
      progress(
        `lead import on ${name}: ${settings.importRounds} rounds of ${settings.importRows} rows through the API and as plain inserts`,
      );
      const measured = await importOn(url, settings, progress);
      if (measured.copyPerSecond.length > 0) copied = measured;
      return { row: importRow(labels.import(name, settings.importRows), measured), notes: importNotes(name, measured) };
    });
    if (url)
      result.rows.push(
        copied
          ? copyRow(labels.copy(settings.importRows), copied)
          : missing(labels.copy(settings.importRows), 'no psql \\copy baseline (see the notes)'),
      );
    if (settings.memoryRows > 0)
      await attempt(labels.memory(name, settings.memoryRows), `Lead import memory on ${name}`, async () => {
        progress(`lead import memory on ${name}: the service in a child process imports ${settings.memoryRows} rows`);
        const measured = await measureImportMemory({
          rows: settings.memoryRows,
          databaseUrl: url,
          logLevel: settings.logLevel,
        });
        return {
          row: memoryRow(labels.memory(name, settings.memoryRows), measured),
          notes: [memoryNote(name, measured)],
        };
      });
  }
  if (!databaseUrl)
    result.rows.push(
      missing(labels.import('PostgreSQL', settings.importRows), 'skipped: no DATABASE_URL'),
      missing(labels.memory('PostgreSQL', settings.memoryRows), 'skipped: no DATABASE_URL'),
    );
  return result;
}

async function importOn(
  databaseUrl: string | undefined,
  settings: LeadsSettings,
  progress: (line: string) => void,
): Promise<ImportResult> {
  const db = await openBenchDatabase(databaseUrl);
  try {
    await migrate(db.sql);
    return await measureImport(db, {
      databaseUrl,
      rows: settings.importRows,
      rounds: settings.importRounds,
      logLevel: settings.logLevel,
      progress,
    });
  } finally {
    await db.close();
  }
}

function importRow(label: string, r: ImportResult): RowResult {
  const perRound = r.importPerSecond.map((value, i) => value / r.plainPerSecond[i]);
  return {
    label,
    a: `${count(Math.round(median(r.importPerSecond)))} rows/s`,
    b: `${count(Math.round(median(r.plainPerSecond)))} rows/s`,
    ratio: median(r.importPerSecond) / median(r.plainPerSecond),
    spread: [quantile(perRound, 0.25), quantile(perRound, 0.75)],
  };
}

function copyRow(label: string, r: ImportResult): RowResult {
  const perRound = r.importPerSecond.map((value, i) => value / r.copyPerSecond[i]);
  return {
    label,
    a: `${count(Math.round(median(r.importPerSecond)))} rows/s`,
    b: `${count(Math.round(median(r.copyPerSecond)))} rows/s`,
    ratio: median(r.importPerSecond) / median(r.copyPerSecond),
    spread: [quantile(perRound, 0.25), quantile(perRound, 0.75)],
  };
}

function memoryRow(label: string, m: MemoryResult): RowResult {
  return {
    label,
    a: `peak ${mb(m.peakMb)} (+${mb(m.peakMb - m.idleMb)} above idle)`,
    b: `idle ${mb(m.idleMb)}`,
    ratio: m.peakMb / m.idleMb,
  };
}

function importNotes(name: string, r: ImportResult): string[] {
  const rate = (value: number) => count(Math.round(value));
  const list = (values: number[]) => values.map(rate).join(', ');
  const runs = r.runs.map((run, i) => {
    const rowsMs = run.totalMs - run.runningMs;
    return `round ${i + 1}: POST answered in ${ms(run.postMs)}, job running after ${ms(run.runningMs)}, then ${ms(rowsMs)} for the rows (${run.changes.length} changes seen); this process spent ${ms(r.generatingMs[i])} generating the CSV`;
  });
  const s = r.stages;
  const goal =
    name === 'PostgreSQL'
      ? ` The issue's goals (for information): ≥ ${count(GOALS.postgresRowsPerSecond)} rows/s on PostgreSQL and ≥ ${GOALS.copyRatio} of psql \\copy; this run ${rate(median(r.importPerSecond))} rows/s.`
      : '';
  const copy =
    r.copyPerSecond.length > 0
      ? ` psql \\copy of the same file into a copy of leads (its indexes): ${list(r.copyPerSecond)} rows/s per round.`
      : r.copyMissing && name === 'PostgreSQL'
        ? ` No psql \\copy baseline: ${r.copyMissing}.`
        : '';
  const cpu = ` CPU of the bench's process (the service, and the CSV server beside it) during each import: ${r.importCpuMs.map((v) => `${Math.round(v)} ms`).join(', ')}.`;
  return [
    `${name} lead import of ${count(r.rows)} rows: ${list(r.importPerSecond)} rows/s end to end against ${list(r.plainPerSecond)} rows/s plain insert into leads (the baseline) and ${list(r.unindexedPerSecond)} rows/s into an unindexed table of six text columns, per round; ${runs.join('; ')}.${copy}${cpu}${goal}`,
    `${name} lead import stages alone, ${count(r.rows)} rows each, in the bench's process (rows/s): generating the CSV ${rate(s.generate)}, readCsvRows ${rate(s.parse)}, csvItemGroups + normalizeLead ${rate(s.parseNormalise)}, writeLeadCounts on encoded batches (the database alone) ${rate(s.write)}, runImport over csvItemGroups (the engine without HTTP, queue or fetch) ${rate(s.engine)}.`,
  ];
}

function memoryNote(name: string, m: MemoryResult): string {
  const above = m.peakMb - m.idleMb;
  const where =
    name === 'PGlite' ? ' (the embedded database runs inside the service process, so its memory counts)' : '';
  const peak = m.highWaterMark
    ? `kernel high-water mark ${mb(m.peakMb)}, sampled peak ${mb(m.sampledPeakMb)}`
    : `sampled peak ${mb(m.sampledPeakMb)} (the high-water mark could not be reset)`;
  return (
    `${name} import memory${where}: ${count(m.rows)} rows in ${(m.run.totalMs / 1000).toFixed(1)} s (${count(Math.round(m.rows / (m.run.totalMs / 1000)))} rows/s); ` +
    `idle ${mb(m.idleMb)}, ${peak} over ${m.samples} samples every ${SAMPLE_MS} ms; at the end of each quarter of the import ${m.quarters.map(mb).join(', ')}; ${mb(m.afterMb)} once done. ` +
    `The issue's goal (for information): under ${GOALS.mbAboveIdle} MB above idle; this run ${mb(above)}.`
  );
}

const ms = (value: number) => `${Math.round(value)} ms`;
const mb = (value: number) => `${value.toFixed(0)} MB`;

const missing = (label: string, why: string): RowResult => ({ label, a: why, b: '—', ratio: Number.NaN });
