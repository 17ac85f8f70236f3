import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { initdbTemplateFile } from '../helpers/db.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pglite-thread-test-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(options: { dataDir?: string; memory?: boolean }): Promise<Database> {
  const db = await openDatabase({ ...options, folderTemplate: await initdbTemplateFile() });
  cleanups.push(() => db.close());
  return db;
}

// A statement of about a second of PostgreSQL's CPU, and the turns this thread's event loop takes meanwhile: where
// PGlite runs on this thread, the statement runs inside one turn and none are taken while it does (2 turns in all,
// before and after); on its own thread, every turn the machine's CPU allows (283,007 on a quiet machine, 24 with a
// statement a third as long in a loaded CI run, which is why the statement is this long and the bar this low).
async function turnsDuringLongStatement(db: Database): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    turns += 1;
    if (running) setImmediate(spin);
  };
  const statement = db.sql`select count(*)::int as n from generate_series(1, 1000000) as g(i) where i % 7 = 0`;
  setImmediate(spin);
  const [{ n }] = await statement;
  running = false;
  expect(n).toBe(142_857);
  return turns;
}

describeEmbeddedOnly('the embedded database of a data folder', () => {
  it("runs on a thread of its own: the opening thread's event loop turns while a statement executes", async () => {
    const threaded = await turnsDuringLongStatement(await open({ dataDir: await tempDir() }));
    const inProcess = await turnsDuringLongStatement(await open({ memory: true }));
    expect(threaded).toBeGreaterThan(5 * Math.max(inProcess, 2));
  });

  it('closes cleanly and reopens with its rows', async () => {
    const dataDir = await tempDir();
    const db = await openDatabase({ dataDir, folderTemplate: await initdbTemplateFile() });
    await db.sql`create table kept (id int primary key)`;
    await db.sql`insert into kept values (1), (2)`;
    await db.close();
    const again = await open({ dataDir });
    expect(await again.sql`select id from kept order by id`).toEqual([{ id: 1 }, { id: 2 }]);
    expect(again.lost).toBeInstanceOf(Promise);
  });

  it("fails to open a folder PostgreSQL cannot start from with the database's error, and leaves it unlocked", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'PG_VERSION'), '12\n');
    await expect(open({ dataDir })).rejects.toThrow(/PGlite failed to initialize/);
    // The lock was given back: a second try fails the same way, not with "in use by process …".
    await expect(open({ dataDir })).rejects.toThrow(/PGlite failed to initialize/);
  });
});
