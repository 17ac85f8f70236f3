// The admin panel's static files, read once per process: the page shell, styles.css and the icon from
// src/admin/public/, and the bundle (src/admin/panel-bundle.ts): app.js, and app.css from the stylesheets the
// modules import (uPlot's, and a page's own). One build id (a hash
// over every file) names the folder they are served from, so each deploy gets fresh URLs and the files themselves
// can be cached for good.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { etagOf } from '../http/etag.ts';
import { bundlePanelSync } from './panel-bundle-sync.ts';

/**
 * Set by scripts/build.ts to the folder of the built bundle, relative to the repository; under tsx it is not
 * defined and the panel is bundled in memory.
 */
declare const __ADMIN_PANEL_DIR__: string | undefined;

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
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const repoRoot = new URL('../../', import.meta.url);

/** The script bundle: built (dist/admin/) when this module runs from the build, else made now. */
function panelScripts(): Map<string, Uint8Array> {
  if (typeof __ADMIN_PANEL_DIR__ === 'string') {
    const dir = fileURLToPath(new URL(`${__ADMIN_PANEL_DIR__}/`, repoRoot));
    return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))] as const));
  }
  return bundlePanelSync().files;
}

let cached: AdminAssets | undefined;

/** The panel's files, loaded once per process (bundling takes a few hundred milliseconds). */
export function adminAssets(): AdminAssets {
  cached ??= loadAdminAssets();
  return cached;
}

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
  // The .js files are the bundle's sources; the bundle is served in their place.
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && extname(entry.name) !== '.js' && extname(entry.name) !== '.json')
    .map((entry) => entry.name)
    .sort();
  if (!names.includes(SHELL)) throw new Error(`admin assets: ${SHELL} is missing from ${dir}`);
  const raw = new Map<string, Uint8Array>(names.map((name) => [name, readFileSync(join(dir, name))] as const));
  for (const [name, body] of panelScripts()) raw.set(basename(name), body);
  const build = createHash('sha256');
  for (const [name, body] of raw) build.update(name).update('\0').update(body).update('\0');
  const buildId = build.digest('hex').slice(0, 12);
  const shell = new TextDecoder().decode(raw.get(SHELL)).replaceAll('{{assets}}', assetsBase(buildId));
  const files = new Map<string, StaticFile>();
  for (const [name, body] of raw) if (name !== SHELL) files.set(name, staticFile(new Uint8Array(body), name));
  return { buildId, page: staticFile(new TextEncoder().encode(shell), SHELL), files };
}
