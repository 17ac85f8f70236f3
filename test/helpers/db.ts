// A private, migrated database per call: a fresh schema on DATABASE_URL when it is set, else
// an in-memory PGlite. Tests running in parallel never see each other's rows.
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { servePglite, type Database } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPrivateSchema } from '../../src/db/private-schema.ts';

export interface TestDatabaseOptions {
  /** Apply src/db/migrations (default true); false gives an empty database. */
  migrate?: boolean;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const migrated = options.migrate ?? true;
  const url = process.env.DATABASE_URL;
  return url ? createSchemaDatabase(url, migrated) : createPgliteDatabase(migrated);
}

async function createSchemaDatabase(url: string, migrated: boolean): Promise<Database> {
  const db = await openPrivateSchema(url, 't');
  try {
    if (migrated) await migrate(db.sql);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

// Running initdb takes seconds in WASM; loading a dumped data folder takes a fraction of that,
// so each test process builds one template per kind and starts every database from it.
const templates = new Map<boolean, Promise<Blob>>();

function template(migrated: boolean): Promise<Blob> {
  let made = templates.get(migrated);
  if (!made) {
    made = buildTemplate(migrated);
    templates.set(migrated, made);
  }
  return made;
}

async function createPgliteDatabase(migrated: boolean): Promise<Database> {
  const pglite = await PGlite.create({ loadDataDir: await template(migrated) });
  return servePglite(pglite);
}

let templateFile: Promise<string> | undefined;

/**
 * A file holding the dump of a fresh data folder (what `npm run build` writes as dist/pglite-initdb.tar), for
 * `openDatabase({ dataDir, initdbTemplate })`: a test's new data folder is unpacked from it instead of running
 * initdb, which takes seconds. One per test process, in the system's temporary folder until it exits.
 */
export function initdbTemplateFile(): Promise<string> {
  templateFile ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'initdb-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'fresh.tar');
    await writeFile(path, new Uint8Array(await (await template(false)).arrayBuffer()));
    return path;
  })();
  return templateFile;
}

async function buildTemplate(migrated: boolean): Promise<Blob> {
  const pglite = await PGlite.create();
  const db = await servePglite(pglite);
  try {
    if (migrated) await migrate(db.sql);
    return await pglite.dumpDataDir('none');
  } finally {
    await db.close();
  }
}
