// Unpacks the dump of a new embedded data folder (dist/pglite-first-start.tar, written by PGlite's dumpDataDir) into
// a new data folder with Node's own file calls. PGlite can do it itself (`loadDataDir`), but through its
// WebAssembly file system: 1.2 s of a first start's 1.7 s to open the folder on our 2-core machines, where these
// writes take about a tenth of that (issue 32). The dump holds directories and regular files only, in ustar
// headers; anything else (a link, a path outside the folder, a bad checksum) is refused before anything is
// written, and the start fails saying so: the template is the build's own, made by the PGlite version it runs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

const BLOCK = 512;
/** Written last: a folder holds an embedded database once PG_VERSION is there. */
const MARKER = 'PG_VERSION';

/** Whether the folder holds no embedded database yet: a start on it creates one (from the template, or initdb). */
export const embeddedFolderIsNew = (dataDir: string): boolean => !existsSync(join(dataDir, MARKER));

interface Entry {
  path: string;
  kind: 'file' | 'directory';
  mode: number;
  body: Uint8Array;
}

const decoder = new TextDecoder();
const text = (bytes: Uint8Array, from: number, length: number): string => {
  const field = bytes.subarray(from, from + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
};

const octal = (bytes: Uint8Array, from: number, length: number): number => {
  const value = text(bytes, from, length).trim();
  if (!/^[0-7]*$/.test(value)) throw new Error(`the data folder template has a bad number field "${value}"`);
  return value === '' ? 0 : Number.parseInt(value, 8);
};

/** The entries of a ustar archive with directories and regular files only; throws on anything else. */
export function tarEntries(tar: Uint8Array): Entry[] {
  const entries: Entry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const stored = octal(header, 148, 8);
    const sum = header.reduce((total, byte, i) => total + (i >= 148 && i < 156 ? 32 : byte), 0);
    if (sum !== stored) throw new Error('the data folder template has a header with a bad checksum');
    const prefix = text(header, 345, 155);
    const name = text(header, 0, 100);
    const path = normalize((prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '')).replace(/\/+$/, '');
    // normalize leaves a `..` only at the start, where it would climb out of the folder.
    if (path === '.' || path === '' || path.split(sep)[0] === '..')
      throw new Error(`the data folder template names a path outside the folder: ${name}`);
    const type = String.fromCharCode(header[156]);
    const size = octal(header, 124, 12);
    const bodyStart = offset + BLOCK;
    if (bodyStart + size > tar.length) throw new Error('the data folder template is cut short');
    if (type === '5') entries.push({ path, kind: 'directory', mode: octal(header, 100, 8), body: new Uint8Array() });
    else if (type === '0' || type === '\0')
      entries.push({
        path,
        kind: 'file',
        mode: octal(header, 100, 8),
        body: tar.subarray(bodyStart, bodyStart + size),
      });
    else throw new Error(`the data folder template holds an entry of type "${type}" (${name})`);
    offset = bodyStart + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

/**
 * Writes the template's folders and files into `dataDir`, PG_VERSION last. With the synchronous calls: a thousand
 * small files awaited one by one took about a second on a loaded machine, each a trip through the thread pool, and
 * nothing else can use the database meanwhile.
 */
export function unpackTemplate(tar: Uint8Array, dataDir: string): void {
  const entries = tarEntries(tar);
  if (!entries.some((entry) => entry.path === MARKER && entry.kind === 'file'))
    throw new Error(`the data folder template has no ${MARKER}`);
  for (const entry of entries.filter((e) => e.kind === 'directory'))
    mkdirSync(join(dataDir, entry.path), { recursive: true, mode: entry.mode & 0o777 });
  const made = new Set<string>();
  const write = (entry: Entry) => {
    const parent = dirname(join(dataDir, entry.path));
    if (!made.has(parent)) mkdirSync(parent, { recursive: true });
    made.add(parent);
    writeFileSync(join(dataDir, entry.path), entry.body, { mode: entry.mode & 0o777 });
  };
  const files = entries.filter((e) => e.kind === 'file');
  for (const entry of files.filter((e) => e.path !== MARKER)) write(entry);
  write(files.find((e) => e.path === MARKER) as Entry);
}
