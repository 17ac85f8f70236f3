// Jobs per second end to end (first enqueue → last job completed), through src/jobs with a
// worker in this process, on embedded PGlite (temporary DATA_DIR) or on DATABASE_URL (private schema).
// Run: npx tsx scripts/bench/jobs-throughput.ts [jobs=2000] [concurrency=10]
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { z } from 'zod';
import { migrate } from '../../src/db/migrate.ts';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { createJobs } from '../../src/jobs/jobs.ts';
import { openBenchDatabase } from './bench-database.ts';

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 10);
const db = await openBenchDatabase(process.env.DATABASE_URL);
const bossSchema = `bench_jobs_${randomBytes(4).toString('hex')}`;
try {
  await migrate(db.sql);
  let done = 0;
  const kind = defineJob({
    name: 'bench.noop',
    payload: z.object({ i: z.number() }),
    handler: async () => {
      done += 1;
    },
  });
  const jobs = createJobs({ connectionString: db.connectionString as string, sql: db.sql, log: pino({ level: 'silent' }), schema: bossSchema, poolSize: db.kind === 'pglite' ? 2 : 4, worker: { concurrency, pollIntervalMs: 500 } });
  jobs.register(kind);
  await jobs.start({ work: true });
  const started = performance.now();
  for (let i = 0; i < total; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, k) => jobs.enqueue(kind, { i: i + k })));
  }
  const enqueued = performance.now();
  // Completion is recorded after the handler returns: wait for pg-boss's state, not our counter.
  for (;;) {
    const [row] = await db.sql.unsafe(`select count(*)::int as n from ${bossSchema}.job where state = 'completed'`);
    if (row.n >= total) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ended = performance.now();
  await jobs.stop({ timeoutMs: 5000 });
  const seconds = (ended - started) / 1000;
  console.log(JSON.stringify({ database: db.description, jobs: total, concurrency, handler_runs: done, enqueue_per_s: Math.round(total / ((enqueued - started) / 1000)), end_to_end_jobs_per_s: Math.round(total / seconds), seconds: Number(seconds.toFixed(2)) }));
} finally {
  await db.sql.unsafe(`drop schema if exists ${bossSchema} cascade`).catch(() => {});
  await db.close();
}
