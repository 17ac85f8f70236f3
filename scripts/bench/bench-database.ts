// The service's database for one benchmark run: embedded PGlite in a fresh temporary DATA_DIR, or,
// when a PostgreSQL URL is given, a private schema on it, so nothing is left behind either way.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { openPrivateSchema } from '../../src/db/private-schema.ts';

export interface BenchDatabase extends Database {
  /** For the report: where the data lives. */
  description: string;
}

/**
 * A pg-boss schema of a bench's own (`bench_<kind>_<hex>`): on PostgreSQL it lives beside the bench's private schema,
 * not in it, so `drop` (never failing) must run once the services using it have stopped.
 */
export function benchJobsSchema(db: Pick<Database, 'sql'>, kind: string): { name: string; drop: () => Promise<void> } {
  const name = `bench_${kind}_${randomBytes(4).toString('hex')}`;
  const drop = () =>
    db.sql.unsafe(`drop schema if exists ${name} cascade`).then(
      () => undefined,
      () => undefined,
    );
  return { name, drop };
}

export async function openBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  return databaseUrl ? openSchema(databaseUrl) : openEmbedded();
}

async function openEmbedded(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-data-'));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  // The service's cache size (EMBEDDED_SHARED_BUFFERS_MB, or its default), as `npm start` would open the folder.
  const { embeddedSharedBuffersMb } = loadConfig(process.env).database;
  const db = await openDatabase({ dataDir, embeddedSharedBuffersMb }).catch(async (error: unknown) => {
    await removeDir();
    throw error;
  });
  const close = async () => {
    try {
      await db.close();
    } finally {
      await removeDir();
    }
  };
  return { ...db, close, description: 'embedded PGlite (temporary DATA_DIR)' };
}

async function openSchema(databaseUrl: string): Promise<BenchDatabase> {
  const db = await openPrivateSchema(databaseUrl, 'bench');
  const host = new URL(databaseUrl).host;
  return { ...db, description: `PostgreSQL at ${host} (private schema)` };
}
