// Jobs per second end to end (first enqueue → last job completed), through src/jobs with a worker in
// this process, beside its baseline on the same database: plain single-row write transactions per
// second. Rounds alternate the two, so machine noise hits both alike. npm run bench calls
// measureJobsThroughput; run alone on embedded PGlite (temporary DATA_DIR) or on DATABASE_URL
// (private schema): npx tsx scripts/bench/jobs-throughput.ts [jobs=2000] [concurrency=10] [rounds=1]
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Sql } from 'postgres';
import { z } from 'zod';
import type { Database } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { defineJob, type JobKind } from '../../src/jobs/job-kind.ts';
import { createJobs, type Jobs } from '../../src/jobs/jobs.ts';
import { openBenchDatabase } from './bench-database.ts';
import { median } from './stats.ts';

export interface ThroughputOptions {
  /** Jobs per round, and write transactions per round of the baseline. */
  jobs: number;
  /** Jobs the worker runs at once, and write transactions in flight at once. */
  concurrency: number;
  rounds: number;
  progress?: (line: string) => void;
}

export interface ThroughputResult {
  /** One value per round. */
  jobsPerSecond: number[];
  enqueuePerSecond: number[];
  writesPerSecond: number[];
}

interface Queue {
  jobs: Jobs;
  kind: JobKind<{ i: number }>;
  sql: Sql;
  schema: string;
  handled(): number;
}

// Enqueues go out in batches like a busy API would send them, not one at a time.
export const ENQUEUE_BATCH = 50;
// Not counted: JIT, pg-boss's prepared plans, the first pages of the tables.
export const WARMUP = 100;

export async function measureJobsThroughput(db: Database, options: ThroughputOptions): Promise<ThroughputResult> {
  let handled = 0;
  const kind = defineJob({
    name: 'bench.noop',
    payload: z.object({ i: z.number() }),
    handler: async () => void (handled += 1),
  });
  const schema = `bench_jobs_${randomBytes(4).toString('hex')}`;
  const jobs = createJobs({
    connectionString: db.connectionString,
    sql: db.sql,
    log: pino({ level: 'silent' }),
    schema,
    poolSize: db.kind === 'pglite' ? 2 : 4,
    sharedDatabase: db.kind === 'postgres',
    worker: { concurrency: options.concurrency, pollIntervalMs: 500 },
  });
  jobs.register(kind);
  const queue: Queue = { jobs, kind, sql: db.sql, schema, handled: () => handled };
  const result: ThroughputResult = { jobsPerSecond: [], enqueuePerSecond: [], writesPerSecond: [] };
  try {
    await db.sql`create table bench_writes (id bigserial primary key, n integer not null, at timestamptz not null default now())`;
    await jobs.start({ work: true, deps: undefined });
    await runJobs(queue, WARMUP);
    await runWrites(db.sql, WARMUP, options.concurrency);
    for (let round = 1; round <= options.rounds; round += 1) {
      // Alternate which goes first, so neither always inherits the other's leftovers (autovacuum, garbage).
      const writes = async () =>
        result.writesPerSecond.push(await runWrites(db.sql, options.jobs, options.concurrency));
      const work = async () => {
        const r = await runJobs(queue, options.jobs);
        result.jobsPerSecond.push(r.jobsPerSecond);
        result.enqueuePerSecond.push(r.enqueuePerSecond);
      };
      for (const step of round % 2 ? [writes, work] : [work, writes]) await step();
      options.progress?.(
        `jobs round ${round}/${options.rounds}: ${Math.round(result.jobsPerSecond.at(-1)!)} jobs/s, ${Math.round(result.writesPerSecond.at(-1)!)} write transactions/s`,
      );
    }
    return result;
  } finally {
    await jobs.stop({ timeoutMs: 5000 }).catch(() => {});
    await db.sql.unsafe(`drop schema if exists ${schema} cascade`).catch(() => {});
    await db.sql`drop table if exists bench_writes`.catch(() => {});
  }
}

async function runJobs(queue: Queue, count: number): Promise<{ jobsPerSecond: number; enqueuePerSecond: number }> {
  const completedBefore = await completed(queue);
  const handledBefore = queue.handled();
  const started = performance.now();
  for (let i = 0; i < count; i += ENQUEUE_BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(ENQUEUE_BATCH, count - i) }, (_, k) =>
        queue.jobs.enqueue(queue.kind, { i: i + k }),
      ),
    );
  }
  const enqueued = performance.now();
  // Our counter first (no queries while the worker runs), then pg-boss's state: completion is
  // recorded after the handler returns.
  await until(async () => queue.handled() >= handledBefore + count, 5);
  await until(async () => (await completed(queue)) >= completedBefore + count, 10);
  const ended = performance.now();
  return { jobsPerSecond: count / ((ended - started) / 1000), enqueuePerSecond: count / ((enqueued - started) / 1000) };
}

/** `count` single-row insert transactions, `concurrency` of them in flight at once; returns transactions/s. */
export async function runWrites(sql: Sql, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const n = next++;
      await sql.begin((tx) => tx`insert into bench_writes (n) values (${n})`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  return count / ((performance.now() - started) / 1000);
}

async function completed(queue: Queue): Promise<number> {
  // No parameters: on PGlite, an unsafe() query with parameters (Parse + Describe, then Bind in a later
  // write) can have its unnamed statement replaced by pg-boss's in between on the shared backend.
  const [row] = await queue.sql.unsafe(
    `select count(*)::int as n from ${queue.schema}.job where name = '${queue.kind.name}' and state = 'completed'`,
  );
  return row.n as number;
}

async function until(done: () => Promise<boolean>, everyMs: number): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, everyMs));
}

async function main(): Promise<void> {
  const jobs = Number(process.argv[2] ?? 2000);
  const concurrency = Number(process.argv[3] ?? 10);
  const rounds = Number(process.argv[4] ?? 1);
  const db = await openBenchDatabase(process.env.DATABASE_URL);
  try {
    await migrate(db.sql);
    const r = await measureJobsThroughput(db, { jobs, concurrency, rounds });
    const jobsPerSecond = median(r.jobsPerSecond);
    const writesPerSecond = median(r.writesPerSecond);
    console.log(
      JSON.stringify({
        database: db.description,
        jobs,
        concurrency,
        rounds,
        enqueue_per_s: Math.round(median(r.enqueuePerSecond)),
        end_to_end_jobs_per_s: Math.round(jobsPerSecond),
        write_transactions_per_s: Math.round(writesPerSecond),
        jobs_per_write_transaction: Number((jobsPerSecond / writesPerSecond).toFixed(3)),
      }),
    );
  } finally {
    await db.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
