// The admin panel's static files, read once when the app is built. They are plain ES modules and CSS
// with no build step; one build id (a hash over every file) names the folder they are served from, so
// each deploy gets fresh URLs and the files themselves can be cached for good.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { etagOf } from '../http/etag.ts';

export interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
}

export interface AdminAssets {
  buildId: string;
  /** The page shell, with asset URLs pointing at this build. */
  page: StaticFile;
  files: ReadonlyMap<string, StaticFile>;
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

const defaultDir = fileURLToPath(new URL('./public/', import.meta.url));
const SHELL = 'index.html';

function staticFile(body: Uint8Array<ArrayBuffer>, name: string): StaticFile {
  const contentType = contentTypes[extname(name)];
  if (!contentType) throw new Error(`admin assets: no content type for ${name}`);
  return { body, contentType, etag: etagOf(body) };
}

export function assetsBase(buildId: string): string {
  return `/admin/assets/${buildId}`;
}

/** Loads every file of the panel; a missing shell or an unknown file type throws here, not on a request. */
export function loadAdminAssets(dir = defaultDir): AdminAssets {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  if (!names.includes(SHELL)) throw new Error(`admin assets: ${SHELL} is missing from ${dir}`);
  const raw = new Map(names.map((name) => [name, readFileSync(join(dir, name))] as const));
  const build = createHash('sha256');
  for (const [name, body] of raw) build.update(name).update('\0').update(body).update('\0');
  const buildId = build.digest('hex').slice(0, 12);
  const shell = raw.get(SHELL)!.toString('utf8').replaceAll('{{assets}}', assetsBase(buildId));
  const files = new Map<string, StaticFile>();
  for (const [name, body] of raw) if (name !== SHELL) files.set(name, staticFile(new Uint8Array(body), name));
  return { buildId, page: staticFile(new TextEncoder().encode(shell), SHELL), files };
}
