// A first start on a new embedded data folder begins from the build's template (src/first-start-template.ts):
// migrated, pg-boss's queues and schedules made, and nothing particular to one installation in it. A template
// older than the migrations still gives a right folder: the start applies what it lacks.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { dumpFirstStartTemplate, firstStartTemplateStamp } from '../../src/first-start-template.ts';
import { dispatchSequenceMessagesJob } from '../../src/handlers/sequences/sender.ts';
import { serviceJobs } from '../../src/service-jobs.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const migrationsDir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const migrations = readdirSync(migrationsDir)
  .filter((name) => name.endsWith('.sql'))
  .sort();
const dir = mkdtempSync(join(tmpdir(), 'first-start-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The service's migrations and one more, written after the template was made, in a folder of their own. */
function laterMigrations(): string {
  const later = join(dir, 'later-migrations');
  mkdirSync(later, { recursive: true });
  for (const name of migrations) copyFileSync(join(migrationsDir, name), join(later, name));
  writeFileSync(join(later, '9999_later.sql'), 'create table added_later (id int);\n');
  return later;
}

let opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
  opened = [];
});

/** A new data folder unpacked from `template`, as a first start opens it. */
async function newFolder(template: string, name: string): Promise<Database> {
  const db = await openDatabase({ dataDir: join(dir, name), folderTemplate: template });
  opened.push(db);
  return db;
}

const template = join(dir, 'template.tar');
beforeAll(async () => {
  writeFileSync(template, await dumpFirstStartTemplate());
}, 120_000);

describeEmbeddedOnly('the template of a new data folder', () => {
  it('holds every migration, so a first start applies none', async () => {
    const db = await newFolder(template, 'current');
    const recorded = await db.sql<{ name: string }[]>`select name from schema_migrations order by name`;
    expect(recorded.map((row) => row.name)).toEqual(migrations);
    expect(await migrate(db.sql)).toEqual([]);
  });

  it("holds pg-boss's schema with a queue for every job kind and the service's schedules, and no job", async () => {
    const db = await newFolder(template, 'queues');
    const queues = await db.sql<{ name: string }[]>`select name from pgboss.queue order by name`;
    expect(queues.map((row) => row.name)).toEqual(serviceJobs.map((kind) => kind.name).sort());
    const schedules = await db.sql<{ name: string; cron: string }[]>`select name, cron from pgboss.schedule`;
    expect(schedules).toContainEqual({ name: dispatchSequenceMessagesJob.name, cron: '* * * * *' });
    expect((await db.sql`select count(*)::int as n from pgboss.job`)[0].n).toBe(0);
  });

  it("holds no row of the service's own but the migrations' records: no secret, no account", async () => {
    const db = await newFolder(template, 'empty');
    const tables = await db.sql<{ name: string }[]>`
      select tablename as name from pg_tables where schemaname = 'public' order by tablename`;
    expect(tables.map((row) => row.name)).toContain('server_secrets');
    const filled: string[] = [];
    for (const { name } of tables)
      if (name !== 'schema_migrations' && (await db.sql`select 1 from ${db.sql(name)} limit 1`).length > 0)
        filled.push(name);
    expect(filled).toEqual([]);
  });

  it('gives a right folder when it is older than the migrations: the start applies the ones it lacks', async () => {
    const db = await newFolder(template, 'older');
    const later = laterMigrations();
    expect(await migrate(db.sql, { dir: later })).toEqual(['9999_later.sql']);
    expect((await db.sql`select to_regclass('added_later') is not null as made`)[0].made).toBe(true);
    expect(await migrate(db.sql, { dir: later })).toEqual([]);
  });

  it('is stamped with what it is made from, so a migration added or edited makes the build write it again', () => {
    expect(firstStartTemplateStamp()).toBe(firstStartTemplateStamp());
    expect(firstStartTemplateStamp({ migrationsDir: laterMigrations() })).not.toBe(firstStartTemplateStamp());
    const edited = join(dir, 'edited-migrations');
    mkdirSync(edited, { recursive: true });
    for (const name of migrations) copyFileSync(join(migrationsDir, name), join(edited, name));
    writeFileSync(join(edited, migrations[0]), '-- edited\n', { flag: 'a' });
    expect(firstStartTemplateStamp({ migrationsDir: edited })).not.toBe(firstStartTemplateStamp());
  });
});
