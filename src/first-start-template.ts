// The data folder a first start on the embedded database begins from: the build (scripts/build.ts) dumps a new
// PGlite folder in which the service's default buffer cache is set, every migration applied and pg-boss's schema,
// queues and schedules made, as a first start would leave them before it writes anything of its own. A new
// DATA_DIR is unpacked from it (src/db/template-unpack.ts), so a first start skips initdb, the migrations and
// pg-boss's install, about 3 s of a 4 to 5 s first start on our 2-core machines (issue 32).
//
// Nothing particular to one installation is in it: no row but the migrations' own records, pg-boss's, and the
// schedules (the migrations insert nothing; the secrets, the JWT key and the API-key pepper, are made by each
// first start: src/auth/server-secrets.ts), and no job was ever sent to it (pg-boss's cron and maintenance are off
// while it is made). A template older than the sources still gives a right folder, only a slower first start:
// the start applies the migrations it lacks, and writes the queues and schedules that differ, as on any folder.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { servePglite } from './db/connection.ts';
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB, sharedBuffersStatement } from './db/embedded-settings.ts';
import { migrate } from './db/migrate.ts';
import { createJobs, DEFAULT_LEASE_SECONDS } from './jobs/jobs.ts';
import { queueDefinition } from './jobs/queue-setup.ts';
import { createLogger } from './log.ts';
import { scheduleServiceJobs, serviceJobs } from './service-jobs.ts';

const MIGRATIONS = fileURLToPath(new URL('./db/migrations/', import.meta.url));

export interface TemplateOptions {
  /** Folder of the migrations applied to it (default the service's own); tests give one with fewer. */
  migrationsDir?: string;
}

/**
 * What the template is made from, as one hash: the buffer cache, each migration's name and text, and each queue's
 * stored options (the build adds PGlite's and pg-boss's versions). The build makes the template again when it
 * changes.
 */
export function firstStartTemplateStamp(options: TemplateOptions = {}): string {
  const dir = options.migrationsDir ?? MIGRATIONS;
  const hash = createHash('sha256').update(`shared_buffers=${DEFAULT_EMBEDDED_SHARED_BUFFERS_MB}MB\n`);
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort())
    hash
      .update(`${name}\n`)
      .update(readFileSync(join(dir, name)))
      .update('\n');
  // The embedded database's leases do not depend on JOB_LEASE_SECONDS (src/jobs/job-lease.ts).
  for (const kind of serviceJobs)
    hash.update(`${JSON.stringify(queueDefinition(kind, DEFAULT_LEASE_SECONDS, false))}\n`);
  return hash.digest('hex');
}

/** Makes a new data folder in memory as described above and returns its dump (PGlite's dumpDataDir, a tar). */
export async function dumpFirstStartTemplate(options: TemplateOptions = {}): Promise<Uint8Array> {
  const pglite = await PGlite.create();
  try {
    await pglite.exec(sharedBuffersStatement(DEFAULT_EMBEDDED_SHARED_BUFFERS_MB));
    const db = await servePglite(pglite, { keepPglite: true });
    try {
      await migrate(db.sql, { dir: options.migrationsDir });
      // Set up, never worked: no handler runs, so it needs none of their deps.
      const jobs = createJobs<unknown>({
        connectionString: db.connectionString,
        sql: db.sql,
        log: createLogger('silent'),
        poolSize: 1,
        sharedDatabase: false,
        background: false,
        worker: { concurrency: 1, pollIntervalMs: 1_000 },
      });
      jobs.register(...serviceJobs);
      await jobs.start({ work: false, deps: undefined });
      try {
        await scheduleServiceJobs(jobs);
      } finally {
        await jobs.stop({ timeoutMs: 0 });
      }
    } finally {
      await db.close();
    }
    return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pglite.close();
  }
}
