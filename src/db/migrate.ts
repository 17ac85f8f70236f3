// Applies the SQL files of src/db/migrations in name order, each once, safely from several
// instances starting at the same moment.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type postgres from 'postgres';

export interface MigrateOptions {
  /** Folder of `*.sql` files; defaults to the migrations folder beside this module. */
  dir?: string;
  log?: { info(obj: object, msg?: string): void };
}

const defaultDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Applies pending migrations and returns the names applied by this call. */
export async function migrate(sql: postgres.Sql, options: MigrateOptions = {}): Promise<string[]> {
  const dir = options.dir ?? defaultDir;
  const names = await listMigrations(dir);
  const done = await sql.begin(async (tx) => {
    await lockMigrations(tx);
    await tx`
      create table if not exists schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      )`;
    return new Set((await tx<{ name: string }[]>`select name from schema_migrations`).map((row) => row.name));
  });
  // Only the pending ones are tried (each checked again under the lock), so an up-to-date start is one query.
  const pending = names.filter((name) => !done.has(name));
  options.log?.info({ migrations: names.length, pending: pending.length }, 'running migrations');
  const applied: string[] = [];
  for (const name of pending) {
    const started = Date.now();
    if (await applyMigration(sql, dir, name)) {
      applied.push(name);
      options.log?.info({ migration: name, ms: Date.now() - started }, 'applied migration');
    }
  }
  return applied;
}

async function listMigrations(dir: string): Promise<string[]> {
  const entries = await readdir(dir);
  return entries.filter((name) => name.endsWith('.sql')).sort();
}

// Each migration runs in its own transaction under the lock, and checks again whether it is
// applied once the lock is held: another instance may have applied it while this one waited.
async function applyMigration(sql: postgres.Sql, dir: string, name: string): Promise<boolean> {
  const text = await readFile(join(dir, name), 'utf8');
  try {
    return await sql.begin(async (tx) => {
      await lockMigrations(tx);
      const done = await tx`select 1 from schema_migrations where name = ${name}`;
      if (done.length > 0) return false;
      // unsafe() without parameters uses the simple query protocol, which runs many statements.
      await tx.unsafe(text);
      await tx`insert into schema_migrations (name, applied_at) values (${name}, now())`;
      return true;
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${name} failed: ${message}`, { cause: error });
  }
}

// Keyed by schema so that separate schemas on one database (tests) migrate independently,
// while instances sharing a schema wait for each other. Released when the transaction ends.
async function lockMigrations(tx: postgres.TransactionSql): Promise<void> {
  await tx`
    select pg_advisory_xact_lock(
      hashtext('schema_migrations:' || coalesce(current_schema(), ''))
    )`;
}
