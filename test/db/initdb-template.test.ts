// A new embedded data folder is unpacked from the build's dump of a fresh one instead of running initdb; an
// existing folder, or a missing dump, is opened as before. The unpacking is the service's own (Node's file calls,
// src/db/template-unpack.ts): every file as the dump holds it, PG_VERSION last, and nothing but folders and files
// inside the data folder. All of it is the embedded database's (the PostgreSQL run leaves it to the embedded one).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.ts';
import { tarEntries, unpackTemplate } from '../../src/db/template-unpack.ts';
import { initdbTemplateFile } from '../helpers/db.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const dir = mkdtempSync(join(tmpdir(), 'initdb-template-'));
const template = join(dir, 'template.tar');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A dump with a marker table, so a folder made from it can be told from one made by initdb.
beforeAll(async () => {
  // Loaded from the suite's own dump of a fresh folder: running initdb here too took 5-15 s in CI.
  const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(await initdbTemplateFile())]) });
  await pglite.exec('create table made_from_template (id int)');
  writeFileSync(template, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
});

const hasMarker = async (dataDir: string, folderTemplate: string) => {
  const db = await openDatabase({ dataDir, folderTemplate });
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
    expect(await hasMarker(dataDir, await initdbTemplateFile())).toBe(false);
    expect(await hasMarker(dataDir, template)).toBe(false);
  });
});

/** One ustar header and body, as PGlite's dump writes them; `change` alters the header before its checksum. */
function tarEntry(name: string, body: string, type = '0', change: (header: Buffer) => void = () => {}): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000600\0', 100);
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  change(header);
  header.fill(' ', 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
  padded.write(body);
  return Buffer.concat([header, padded]);
}
const tarOf = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);

describeEmbeddedOnly('unpacking the template', () => {
  it('writes every folder and file of the dump as it holds them', async () => {
    const tar = readFileSync(template);
    const dataDir = join(dir, 'unpacked');
    unpackTemplate(tar, dataDir);
    const entries = tarEntries(tar);
    expect(entries.length).toBeGreaterThan(500);
    for (const entry of entries)
      if (entry.kind === 'file') expect(Buffer.compare(readFileSync(join(dataDir, entry.path)), entry.body)).toBe(0);
      else expect(existsSync(join(dataDir, entry.path))).toBe(true);
  });

  it.each([
    [
      'a path outside the folder',
      tarOf(tarEntry('../escaped', 'x'), tarEntry('PG_VERSION', '17')),
      'outside the folder',
    ],
    ['a symbolic link', tarOf(tarEntry('link', '', '2'), tarEntry('PG_VERSION', '17')), 'of type "2"'],
    [
      'a bad checksum',
      tarOf(tarEntry('PG_VERSION', '17'), tarEntry('base/1', 'x')).map((byte, i) => (i === 1024 + 1 ? byte ^ 1 : byte)),
      'bad checksum',
    ],
    ['no PG_VERSION', tarOf(tarEntry('base/1', 'x')), 'no PG_VERSION'],
  ])('refuses a dump with %s and writes nothing', async (_, tar, message) => {
    const dataDir = join(dir, `refused-${message.replace(/\W/g, '')}`);
    expect(() => unpackTemplate(tar, dataDir)).toThrow(message);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('writes PG_VERSION last, so a folder whose unpacking stopped half-way is unpacked again at the next start', async () => {
    const tar = tarOf(tarEntry('PG_VERSION', '17\n'), tarEntry('global/1262', 'catalog'));
    const entries = tarEntries(tar);
    expect(entries.map((e) => e.path)).toEqual(['PG_VERSION', join('global', '1262')]);
    const dataDir = join(dir, 'ordered');
    // A file a stopped unpacking left with other bytes, and no PG_VERSION yet: the next start writes both again.
    unpackTemplate(tarOf(tarEntry('PG_VERSION', '17\n'), tarEntry('global/1262', 'half')), dataDir);
    rmSync(join(dataDir, 'PG_VERSION'));
    unpackTemplate(tar, dataDir);
    expect(readFileSync(join(dataDir, 'global', '1262'), 'utf8')).toBe('catalog');
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
  });
});
