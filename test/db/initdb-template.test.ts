// A new embedded data folder is unpacked from the build's dump of a fresh one instead of running initdb; an
// existing folder, or a missing dump, is opened as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const dir = mkdtempSync(join(tmpdir(), 'initdb-template-'));
const template = join(dir, 'template.tar');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A dump with a marker table, so a folder made from it can be told from one made by initdb.
beforeAll(async () => {
  const pglite = await PGlite.create();
  await pglite.exec('create table made_from_template (id int)');
  writeFileSync(template, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
});

const hasMarker = async (dataDir: string, initdbTemplate: string) => {
  const db = await openDatabase({ dataDir, initdbTemplate });
  try {
    return (await db.sql`select to_regclass('made_from_template') is not null as found`)[0].found as boolean;
  } finally {
    await db.close();
  }
};

describeEmbeddedOnly('openDatabase with an initdb template', () => {
  it('unpacks the template into a new data folder, and opens that folder as it is afterwards', async () => {
    const dataDir = join(dir, 'new');
    expect(await hasMarker(dataDir, template)).toBe(true);
    expect(await hasMarker(dataDir, join(dir, 'missing.tar'))).toBe(true);
  });

  it('runs initdb for a new folder when the template file is missing', async () => {
    expect(await hasMarker(join(dir, 'no-template'), join(dir, 'missing.tar'))).toBe(false);
  });

  it('ignores the template for an existing folder', async () => {
    const dataDir = join(dir, 'existing');
    expect(await hasMarker(dataDir, join(dir, 'missing.tar'))).toBe(false);
    expect(await hasMarker(dataDir, template)).toBe(false);
  });
});
