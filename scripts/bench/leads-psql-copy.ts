// The lead import's second baseline on PostgreSQL, as issue 32 words it: `psql \copy` of the same CSV
// file into the same indexed table. The file is the one the service fetches (leads-csv.ts, written to a
// temporary folder); the table is `leads` copied with its columns, checks and indexes (`like leads
// including all`, in the bench's private schema), with defaults for what the file does not hold (id,
// workspace, status, times) and `tags` as text, since the file writes tags as `a;b`. Timed from starting
// psql to its exit, so psql's own start is included, as it is for a person running it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Database } from '../../src/db/connection.ts';
import { csvChunks } from './leads-csv.ts';

const run = promisify(execFile);

export interface PsqlCopy {
  /** Rows per second of `\copy` of the file of `rows` rows with this prefix (a new file per call). */
  round(prefix: string, rows: number): Promise<number>;
  close(): Promise<void>;
}

/** Creates the table; `missing` says why there is no baseline (psql is not installed). */
export async function preparePsqlCopy(
  db: Database,
  databaseUrl: string,
  table: string,
): Promise<PsqlCopy | { missing: string }> {
  try {
    await run('psql', ['--version']);
  } catch {
    return { missing: 'psql is not installed' };
  }
  const [{ schema }] = await db.sql<{ schema: string }[]>`select current_schema() as schema`;
  await db.sql.unsafe(`create table ${table} (like leads including all)`);
  await db.sql.unsafe(`alter table ${table} alter column tags drop default, alter column tags type text using '',
    alter column id set default gen_random_uuid()::text, alter column workspace_id set default 'ws_bench_copy',
    alter column status set default 'active', alter column created_at set default now(), alter column updated_at set default now()`);
  const folder = await mkdtemp(join(tmpdir(), 'bench-copy-'));
  return {
    async round(prefix, rows) {
      const file = join(folder, `${prefix}.csv`);
      await writeFile(file, csvChunks(prefix, rows));
      const started = performance.now();
      await run('psql', [
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        databaseUrl,
        '-c',
        `\\copy ${schema}.${table} (email, first_name, last_name, company, title, tags) from '${file}' with (format csv, header true)`,
      ]);
      const perSecond = rows / ((performance.now() - started) / 1000);
      await rm(file);
      return perSecond;
    },
    async close() {
      await rm(folder, { recursive: true, force: true });
      await db.sql.unsafe(`drop table if exists ${table}`);
    },
  };
}
