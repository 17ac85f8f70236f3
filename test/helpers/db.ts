// A private, migrated database per call: a fresh schema on DATABASE_URL when it is set, else
// an in-memory PGlite. Tests running in parallel never see each other's rows.
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

async function createPgliteDatabase(migrated: boolean): Promise<Database> {
  let template = templates.get(migrated);
  if (!template) {
    template = buildTemplate(migrated);
    templates.set(migrated, template);
  }
  const pglite = await PGlite.create({ loadDataDir: await template });
  return servePglite(pglite);
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
