// Import rows per second end to end through the API, beside its baseline on the same database: the
// real service (createServices + createApp on 127.0.0.1, jobs run in this process, a private pg-boss
// schema) imports a generated CSV from a csv_url served by this process (leads-csv.ts), timed from
// the POST to the operation seen succeeded. The baseline, as the issue words it, inserts the same rows
// into the same table: `insert … select from unnest(…)` into `leads` (its indexes, another workspace
// id, the columns the import fills), in batches of the engine's size through postgres.js, with no
// conflict clause, suppression lookup or checkpoint. For scale, the same insert into an unindexed
// table of six text columns is timed too. On PostgreSQL, `psql \copy` of the same file into a copy of
// leads is the second baseline (leads-psql-copy.ts). Rounds alternate them; the pipeline's stages are
// then timed alone (leads-stages.ts).
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import type { Ids } from '../../src/deps.ts';
import { BATCH_SIZE } from '../../src/handlers/leads/import-engine.ts';
import { createServices } from '../../src/services.ts';
import { benchJobsSchema } from './bench-database.ts';
import { createCredentials } from './credentials.ts';
import { importCsvUrl, type ImportRun } from './leads-api.ts';
import { startCsvServer, valueBatches, type CsvServer } from './leads-csv.ts';
import { preparePsqlCopy, type PsqlCopy } from './leads-psql-copy.ts';
import { measureStages, type StageResult } from './leads-stages.ts';
import { serveLocal, type LocalServer } from './serve-local.ts';

export interface ImportOptions {
  rows: number;
  rounds: number;
  logLevel: string;
  /** PostgreSQL's URL, for the psql \copy baseline (none on PGlite). */
  databaseUrl?: string;
  progress?: (line: string) => void;
}

export interface ImportResult {
  /** One value per round: rows/s from the POST to the operation succeeded. */
  importPerSecond: number[];
  /** One value per round: rows/s of the plain unnest insert into the leads table. */
  plainPerSecond: number[];
  /** One value per round: rows/s of the same insert into an unindexed table of six text columns. */
  unindexedPerSecond: number[];
  /** One value per round: rows/s of psql \copy of the same file into a copy of leads (PostgreSQL; else empty). */
  copyPerSecond: number[];
  /** Why there is no \copy baseline. */
  copyMissing?: string;
  /** Per round, CPU milliseconds (user + system) of this process, which runs the service, during the import. */
  importCpuMs: number[];
  runs: ImportRun[];
  /** Per round, milliseconds this process spent generating the CSV the service fetched. */
  generatingMs: number[];
  stages: StageResult;
  rows: number;
}

/** Rows of the warm-up import and insert, not counted: two of the engine's batches. */
export const IMPORT_WARMUP_ROWS = 2 * BATCH_SIZE;

export async function measureImport(db: Database, options: ImportOptions): Promise<ImportResult> {
  const tag = randomBytes(4).toString('hex');
  const jobsSchema = benchJobsSchema(db, 'leads');
  const plainTable = `bench_plain_leads_${tag}`;
  const config = loadConfig({
    LOG_LEVEL: options.logLevel,
    RATE_LIMIT_PER_CREDENTIAL: '1000000000',
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
  });
  const services = await createServices({
    db,
    config,
    jobsSchema: jobsSchema.name,
    argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
  });
  let server: LocalServer | undefined;
  let csv: CsvServer | undefined;
  let copy: PsqlCopy | { missing: string } = { missing: 'not PostgreSQL' };
  try {
    await services.startJobs({ work: true });
    server = await serveLocal(createApp(services.deps));
    csv = await startCsvServer();
    const { token, workspaceId } = await createCredentials(server.url);
    // Not a temporary table: on PostgreSQL each batch may take another of the pool's connections.
    await db.sql.unsafe(
      `create table ${plainTable} (email text, first_name text, last_name text, company text, title text, tags text[])`,
    );
    // The baseline's leads belong to a workspace id of their own (leads has no foreign key to workspaces).
    const side = {
      db,
      url: server.url,
      token,
      csv,
      plainTable,
      baselineWorkspace: `ws_bench_plain_${tag}`,
      ids: services.deps.ids,
    };
    if (options.databaseUrl) copy = await preparePsqlCopy(db, options.databaseUrl, `bench_copy_leads_${tag}`);
    await importRound(side, `warm-${tag}`, IMPORT_WARMUP_ROWS);
    await plainRound(side, `warm-${tag}`, IMPORT_WARMUP_ROWS, 'leads');
    await plainRound(side, `warm-${tag}`, IMPORT_WARMUP_ROWS, 'unindexed');
    if ('round' in copy) await copy.round(`warm-${tag}`, IMPORT_WARMUP_ROWS);
    const result: Omit<ImportResult, 'stages'> = {
      importPerSecond: [],
      plainPerSecond: [],
      unindexedPerSecond: [],
      copyPerSecond: [],
      ...('missing' in copy && { copyMissing: copy.missing }),
      importCpuMs: [],
      runs: [],
      generatingMs: [],
      rows: options.rows,
    };
    for (let round = 1; round <= options.rounds; round += 1) {
      const prefix = `r${round}-${tag}`;
      const viaApi = async () => {
        const generatedBefore = csv!.generatingMs();
        const cpuBefore = process.cpuUsage();
        const run = await importRound(side, prefix, options.rows);
        const cpu = process.cpuUsage(cpuBefore);
        result.importCpuMs.push((cpu.user + cpu.system) / 1000);
        result.runs.push(run);
        result.importPerSecond.push(options.rows / (run.totalMs / 1000));
        result.generatingMs.push(csv!.generatingMs() - generatedBefore);
      };
      const plain = async () => result.plainPerSecond.push(await plainRound(side, prefix, options.rows, 'leads'));
      const unindexed = async () =>
        result.unindexedPerSecond.push(await plainRound(side, prefix, options.rows, 'unindexed'));
      const copied = async () => {
        if ('round' in copy) result.copyPerSecond.push(await copy.round(prefix, options.rows));
      };
      for (const step of round % 2 ? [viaApi, copied, plain, unindexed] : [unindexed, plain, copied, viaApi])
        await step();
      options.progress?.(
        `lead import round ${round}/${options.rounds}: ${Math.round(result.importPerSecond.at(-1)!)} rows/s end to end, ${Math.round(result.plainPerSecond.at(-1)!)} rows/s plain insert into leads, ${Math.round(result.unindexedPerSecond.at(-1)!)} rows/s into an unindexed table${result.copyPerSecond.length > 0 ? `, ${Math.round(result.copyPerSecond.at(-1)!)} rows/s psql \\copy` : ''}`,
      );
    }
    options.progress?.(`lead import: timing the stages alone on ${options.rows} rows`);
    return { ...result, stages: await measureStages(services.deps, db, workspaceId, options.rows, `s-${tag}`) };
  } finally {
    await csv?.close();
    if ('close' in copy) await copy.close().catch(() => {});
    if (server) await server.close();
    await services.close();
    await db.sql.unsafe(`drop table if exists ${plainTable}`).catch(() => {});
    await db.sql`delete from leads where workspace_id = ${`ws_bench_plain_${tag}`}`.catch(() => {});
    await jobsSchema.drop();
  }
}

interface Side {
  db: Database;
  url: string;
  token: string;
  csv: CsvServer;
  plainTable: string;
  baselineWorkspace: string;
  ids: Ids;
}

function importRound(side: Side, prefix: string, rows: number): Promise<ImportRun> {
  return importCsvUrl(side.url, side.token, side.csv.url(prefix, rows), rows);
}

/**
 * The same rows inserted a batch per statement, into `leads` (with ids made as the import makes them)
 * or into the unindexed table; returns rows/s.
 */
async function plainRound(side: Side, prefix: string, rows: number, into: 'leads' | 'unindexed'): Promise<number> {
  const { sql } = side.db;
  const started = performance.now();
  for (const batch of valueBatches(prefix, rows, BATCH_SIZE)) {
    const column = (key: keyof (typeof batch)[number]) => sql.array(batch.map((v) => v[key]));
    if (into === 'leads') {
      const now = new Date();
      await sql`
        insert into leads (id, workspace_id, email, first_name, last_name, company, title, tags, status, created_at, updated_at)
        select i, ${side.baselineWorkspace}, e, f, l, c, t, string_to_array(g, ';'), 'active', ${now}, ${now}
        from unnest(${sql.array(batch.map(() => side.ids.make('lead')))}::text[], ${column('email')}::text[], ${column('first_name')}::text[], ${column('last_name')}::text[],
                    ${column('company')}::text[], ${column('title')}::text[], ${column('tags')}::text[]) as u(i, e, f, l, c, t, g)`;
    } else {
      await sql`
        insert into ${sql(side.plainTable)} (email, first_name, last_name, company, title, tags)
        select e, f, l, c, t, string_to_array(g, ';')
        from unnest(${column('email')}::text[], ${column('first_name')}::text[], ${column('last_name')}::text[], ${column('company')}::text[], ${column('title')}::text[], ${column('tags')}::text[]) as u(e, f, l, c, t, g)`;
    }
  }
  return rows / ((performance.now() - started) / 1000);
}
