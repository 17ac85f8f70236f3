// A private, migrated database per call: a fresh schema on DATABASE_URL when it is set, else
// an in-memory PGlite. Tests running in parallel never see each other's rows. A closed one is emptied and
// handed to the next call of the same test process when its structure is as it was made (kept-databases.ts).
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type postgres from 'postgres';
import { openDatabase, servePglite, type Database } from '../../src/db/connection.ts';
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB, sharedBuffersStatement } from '../../src/db/embedded-settings.ts';
import { processAlive } from '../../src/db/data-dir-lock.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPrivateSchema } from '../../src/db/private-schema.ts';
import { baseline, emptied, emptiedJobs, type Baseline, type Runner } from './kept-databases.ts';

export interface TestDatabaseOptions {
  /** Apply src/db/migrations (default true); false gives an empty database. */
  migrate?: boolean;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const migrated = options.migrate ?? true;
  const url = process.env.DATABASE_URL;
  return url ? createSchemaDatabase(url, migrated) : createPgliteDatabase(migrated);
}

// Databases closed and emptied, ready for the next call, by kind (migrated or not). Two of each are plenty: a
// file rarely holds more at once, and a PGlite holds its memory while it waits.
const MAX_KEPT = 2;

/** What a kept database carries besides its structure: the pg-boss schema an app made on it, if one did. */
interface JobsSlot {
  /** The pg-boss schema's name, made on first use (jobsSchemaFor) and kept with the database. */
  jobsSchema: string;
  /** Whether an app on the database used it since the database was handed out. */
  jobsUsed: boolean;
}

interface KeptSchema extends JobsSlot {
  schema: string;
  made: Baseline;
}

/** A new, unused name for a pg-boss schema of a test. */
export const newJobsSchemaName = (): string => `jobs_${randomBytes(5).toString('hex')}`;
const slots = new WeakMap<Database, JobsSlot>();

/**
 * The pg-boss schema for one app's job queue on `db` (made by createTestDatabase): the one kept with the database
 * since an earlier file used it, emptied when that file closed the database, or a new name. The database owns it:
 * its close empties and keeps it, or drops it. `undefined` for a database not made here.
 */
export function jobsSchemaFor(db: Database): string | undefined {
  const slot = slots.get(db);
  if (!slot) return undefined;
  slot.jobsUsed = true;
  return slot.jobsSchema;
}

/**
 * Empties a closed database for the next call (`emptyDatabase` says whether it can be handed on), then the pg-boss
 * schema an app used on it: emptied and kept, or dropped and a new name given for the next.
 */
async function emptiedWithJobs(
  runner: Runner,
  slot: JobsSlot,
  emptyDatabase: () => Promise<boolean>,
): Promise<boolean> {
  if (!(await emptyDatabase())) return false;
  if (!slot.jobsUsed) return true;
  slot.jobsUsed = false;
  if (!(await emptiedJobs(runner, slot.jobsSchema).catch(() => false))) slot.jobsSchema = newJobsSchemaName();
  // Noted as the kept database's schema is, so the next run on this machine drops it once this process has gone.
  else await runner.script(`comment on schema "${slot.jobsSchema}" is '${KEPT_NOTE} ${hostname()} pid ${process.pid}'`);
  return true;
}
const keptSchemas = new Map<boolean, KeptSchema[]>();

// The catalog queries' estimates pass PostgreSQL's JIT threshold, and compiling them took ~0.9 s a query.
const runnerOf = (sql: postgres.Sql): Runner => ({
  rows: <T>(query: string, params: unknown[] = []) =>
    sql.begin(async (tx) => {
      await tx.unsafe('set local jit = off');
      return tx.unsafe(query, params as postgres.ParameterOrJSON<never>[]);
    }) as unknown as Promise<T[]>,
  script: async (text, atomic) => {
    await (atomic ? sql.begin((tx) => tx.unsafe(text)) : sql.unsafe(text));
  },
});

interface Release<T> {
  kept: T[];
  entry: T;
  /** Empties the database and says whether it is as it was made. */
  empty(): Promise<boolean>;
  /** Lets go of what the test used (its connections) when the database is kept. */
  keep(): Promise<void>;
  /** Closes the database for good. */
  discard(): Promise<void>;
}

/** Keeps an emptied database for the next call, or closes it for good when it cannot be reused. */
async function release<T>({ kept, entry, empty, keep, discard }: Release<T>): Promise<void> {
  let reusable = false;
  try {
    reusable = kept.length < MAX_KEPT && (await empty());
  } catch {
    reusable = false;
  }
  if (!reusable) return discard();
  await keep();
  kept.push(entry);
}

const KEPT_NOTE = 'kept test database of';
let reaped: Promise<void> | undefined;

// A kept schema outlives its test process, which ends without closing it; the next run on this machine drops
// those whose process has gone.
async function reapSchemas(url: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    const notes = await db.sql<{ name: string; note: string }[]>`
      select nspname::text as name, obj_description(oid, 'pg_namespace') as note from pg_namespace
       where obj_description(oid, 'pg_namespace') like ${`${KEPT_NOTE} %`}`;
    for (const { name, note } of notes) {
      const [host, pid] = note.slice(KEPT_NOTE.length + 1).split(' pid ');
      if (host === hostname() && !processAlive(Number(pid)))
        await db.sql.unsafe(`drop schema if exists "${name}" cascade`);
    }
  } finally {
    await db.close();
  }
}

async function createSchemaDatabase(url: string, migrated: boolean): Promise<Database> {
  reaped ??= reapSchemas(url);
  await reaped;
  const kept = keptSchemas.get(migrated) ?? [];
  keptSchemas.set(migrated, kept);
  const entry = kept.pop() ?? (await newSchema(url, migrated));
  const db = await openDatabase({ databaseUrl: url, searchPath: entry.schema });
  const drop = async (): Promise<void> => {
    try {
      await db.sql.unsafe(`drop schema if exists "${entry.schema}" cascade`);
      await db.sql.unsafe(`drop schema if exists "${entry.jobsSchema}" cascade`);
    } finally {
      await db.sql.end();
    }
  };
  const close = () =>
    release({
      kept,
      entry,
      empty: () =>
        emptiedWithJobs(runnerOf(db.sql), entry, () => emptied(runnerOf(db.sql), entry.schema, entry.made, false)),
      keep: () => db.sql.end(),
      discard: drop,
    });
  const handed = { ...db, close };
  slots.set(handed, entry);
  return handed;
}

async function newSchema(url: string, migrated: boolean): Promise<KeptSchema> {
  const db = await openPrivateSchema(url, 't');
  try {
    await db.sql.unsafe(`comment on schema "${db.schema}" is '${KEPT_NOTE} ${hostname()} pid ${process.pid}'`);
    if (migrated) await migrate(db.sql);
    const made = await baseline(runnerOf(db.sql), db.schema, false);
    await db.sql.end();
    return { schema: db.schema, made, jobsSchema: newJobsSchemaName(), jobsUsed: false };
  } catch (error) {
    await db.close();
    throw error;
  }
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

interface KeptPglite extends JobsSlot {
  pglite: PGlite;
  made: Baseline;
}
const keptPglites = new Map<boolean, KeptPglite[]>();

const pgliteRunner = (pglite: PGlite): Runner => ({
  rows: async <T>(query: string, params?: unknown[]) => (await pglite.query<T>(query, params)).rows,
  script: async (text, atomic) => {
    await (atomic ? pglite.transaction((tx) => tx.exec(text)) : pglite.exec(text));
  },
});

async function createPgliteDatabase(migrated: boolean): Promise<Database> {
  const kept = keptPglites.get(migrated) ?? [];
  keptPglites.set(migrated, kept);
  const entry = kept.pop() ?? (await newPglite(migrated));
  const db = await servePglite(entry.pglite, { keepPglite: true });
  const close = async (): Promise<void> => {
    await db.close();
    const runner = pgliteRunner(entry.pglite);
    await release({
      kept,
      entry,
      empty: () =>
        emptiedWithJobs(runner, entry, () => emptied(runner, 'public', entry.made, true, [entry.jobsSchema])),
      keep: async () => {},
      discard: () => entry.pglite.close(),
    });
  };
  const handed = { ...db, close };
  slots.set(handed, entry);
  return handed;
}

async function newPglite(migrated: boolean): Promise<KeptPglite> {
  const pglite = await PGlite.create({ loadDataDir: await template(migrated) });
  return {
    pglite,
    made: await baseline(pgliteRunner(pglite), 'public', true),
    jobsSchema: newJobsSchemaName(),
    jobsUsed: false,
  };
}

let templateFile: Promise<string> | undefined;

/**
 * A file holding the dump of a fresh data folder, unmigrated (the build's dist/pglite-first-start.tar is migrated),
 * for `openDatabase({ dataDir, folderTemplate })`: a test's new data folder is unpacked from it instead of running
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
    // As the build's template: each test database made from it starts with the service's default cache.
    await pglite.exec(sharedBuffersStatement(DEFAULT_EMBEDDED_SHARED_BUFFERS_MB));
    if (migrated) await migrate(db.sql);
    return await pglite.dumpDataDir('none');
  } finally {
    await db.close();
  }
}
