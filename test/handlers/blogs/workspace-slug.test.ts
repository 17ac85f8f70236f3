// Migration 0016 gives every workspace a blog slug: existing rows are backfilled from their names (a
// suffix when two names give the same slug), and new rows get one from the insert trigger
// (signup passes a transliterated one).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.ts';
import { createTestApp } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';

const source = fileURLToPath(new URL('../../../src/db/migrations', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A folder with the migrations whose names sort before `until` (or up to and including it). */
async function migrationsUpTo(until: string, inclusive: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'blog-slug-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const name of (await readdir(source)).filter(
    (n) => n.endsWith('.sql') && (inclusive ? n <= until : n < until),
  )) {
    await writeFile(join(dir, name), await readFile(join(source, name)));
  }
  return dir;
}

describe('workspace blog slugs', () => {
  it('backfills existing workspaces and gives new ones a free slug', async () => {
    const db = await createTestDatabase({ migrate: false });
    cleanups.push(() => db.close());
    await migrate(db.sql, { dir: await migrationsUpTo('0016_blogs.sql', false) });
    const now = new Date('2026-01-01T00:00:00Z');
    for (const [i, name] of ['Acme Rockets', 'acme  rockets!', '¿¿¿', 'Acme Rockets'].entries()) {
      await db.sql`insert into workspaces (id, name, created_at) values (${`ws_old${i}`}, ${name}, ${new Date(now.getTime() + i)})`;
    }
    await migrate(db.sql, { dir: await migrationsUpTo('0016_blogs.sql', true) });
    const rows = await db.sql<{ id: string; slug: string }[]>`select id, slug from workspaces order by created_at`;
    expect(rows.map((r) => r.slug)).toEqual(['acme-rockets', 'acme-rockets-2', 'blog', 'acme-rockets-3']);

    await db.sql`insert into workspaces (id, name, created_at) values ('ws_new', 'Acme Rockets', ${now})`;
    const [created] = await db.sql<{ slug: string }[]>`select slug from workspaces where id = 'ws_new'`;
    expect(created.slug).toBe('acme-rockets-4');
  });

  it('transliterates the name of a workspace created through signup', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const first = await t.signup({ workspace_name: 'Zürcher Bäckerei' });
    const second = await t.signup({ workspace_name: 'Zürcher Bäckerei' });
    const cyrillic = await t.signup({ workspace_name: 'Крылья' });
    const slugs = await t.db.sql<
      { id: string; slug: string }[]
    >`select id, slug from workspaces where id in ${t.db.sql([first.workspaceId, second.workspaceId, cyrillic.workspaceId])}`;
    const slugOf = (id: string) => slugs.find((r) => r.id === id)?.slug;
    expect([slugOf(first.workspaceId), slugOf(second.workspaceId), slugOf(cyrillic.workspaceId)]).toEqual([
      'zuercher-baeckerei',
      'zuercher-baeckerei-2',
      'krylya',
    ]);
  });
});
