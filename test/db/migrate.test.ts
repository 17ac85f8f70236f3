import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestDatabase } from '../helpers/db.ts';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(): Promise<Database> {
  const db = await createTestDatabase({ migrate: false });
  cleanups.push(() => db.close());
  return db;
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'db-migrate-test-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function recorded(db: Database): Promise<string[]> {
  const rows = await db.sql`select name from schema_migrations order by name`;
  return rows.map((row) => row.name as string);
}

async function tableExists(db: Database, name: string): Promise<boolean> {
  const [{ exists }] = await db.sql`select to_regclass(${name}) is not null as exists`;
  return exists as boolean;
}

// A second instance on the same database: another pool on PostgreSQL; on PGlite, which has a
// single instance, the same connection.
async function secondInstance(db: Database): Promise<Database> {
  if (db.kind === 'pglite') return db;
  const [{ schema }] = await db.sql`select current_schema() as schema`;
  const other = await openDatabase({ databaseUrl: process.env.DATABASE_URL, searchPath: schema });
  cleanups.push(() => other.close());
  return other;
}

const threeTables = {
  '0001_alpha.sql': 'create table alpha (id int primary key);',
  '0002_beta.sql': 'create table beta (id int primary key references alpha (id));',
  '0003_gamma.sql': 'create table gamma (id int); insert into gamma values (1), (2);',
};

describe('migrate', () => {
  it('applies every migration of the project once, and nothing on the second run', async () => {
    const db = await emptyDatabase();
    const dir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
    const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();

    expect(await migrate(db.sql)).toEqual(names);
    expect(await migrate(db.sql)).toEqual([]);
    expect(await recorded(db)).toEqual(names);
    expect(await tableExists(db, 'workspaces')).toBe(true);
  });

  it('applies files in name order and skips files that are not .sql', async () => {
    const db = await emptyDatabase();
    const dir = await migrationsDir({ ...threeTables, 'README.md': 'not a migration' });

    expect(await migrate(db.sql, { dir })).toEqual(Object.keys(threeTables));
    expect(await db.sql`select id from gamma order by id`).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('records each migration once when two migrators start at the same moment', async () => {
    const db = await emptyDatabase();
    const other = await secondInstance(db);
    const dir = await migrationsDir(threeTables);

    const [first, second] = await Promise.all([migrate(db.sql, { dir }), migrate(other.sql, { dir })]);

    expect([...first, ...second].sort()).toEqual(Object.keys(threeTables));
    expect(await recorded(db)).toEqual(Object.keys(threeTables));
    expect(await db.sql`select count(*)::int as count from gamma`).toEqual([{ count: 2 }]);
  });

  it('rolls back a failing migration entirely and names its file', async () => {
    const db = await emptyDatabase();
    const dir = await migrationsDir({
      '0001_good.sql': 'create table good (id int);',
      '0002_broken.sql': 'create table half_done (id int);\nselect * from no_such_table;',
      '0003_later.sql': 'create table later (id int);',
    });

    await expect(migrate(db.sql, { dir })).rejects.toThrow(/0002_broken\.sql.*no_such_table/);
    expect(await recorded(db)).toEqual(['0001_good.sql']);
    expect(await tableExists(db, 'good')).toBe(true);
    expect(await tableExists(db, 'half_done')).toBe(false);
    expect(await tableExists(db, 'later')).toBe(false);
  });

  it('applies a repaired migration and the ones after it on the next run', async () => {
    const db = await emptyDatabase();
    const dir = await migrationsDir({
      '0001_good.sql': 'create table good (id int);',
      '0002_broken.sql': 'select * from no_such_table;',
      '0003_later.sql': 'create table later (id int);',
    });
    await expect(migrate(db.sql, { dir })).rejects.toThrow(/0002_broken\.sql/);

    await writeFile(join(dir, '0002_broken.sql'), 'create table repaired (id int);');

    expect(await migrate(db.sql, { dir })).toEqual(['0002_broken.sql', '0003_later.sql']);
    expect(await tableExists(db, 'repaired')).toBe(true);
  });

  it('says it is running migrations, then logs each migration it applies', async () => {
    const db = await emptyDatabase();
    const dir = await migrationsDir(threeTables);
    const lines: Array<{ obj: object; msg?: string }> = [];

    await migrate(db.sql, { dir, log: { info: (obj, msg) => lines.push({ obj, msg }) } });

    expect(lines).toEqual([
      { obj: { migrations: 3, pending: 3 }, msg: 'running migrations' },
      ...Object.keys(threeTables).map((name) => ({
        obj: { migration: name, ms: expect.any(Number) },
        msg: 'applied migration',
      })),
    ]);
  });

  it('counts only the pending migrations on a later run and logs none applied', async () => {
    const db = await emptyDatabase();
    const dir = await migrationsDir(threeTables);
    await migrate(db.sql, { dir });
    const lines: Array<{ obj: object; msg?: string }> = [];

    expect(await migrate(db.sql, { dir, log: { info: (obj, msg) => lines.push({ obj, msg }) } })).toEqual([]);

    expect(lines).toEqual([{ obj: { migrations: 3, pending: 0 }, msg: 'running migrations' }]);
  });
});
