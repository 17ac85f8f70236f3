// Builds and packs packages/sdk and packages/launcher, and installs the two tarballs into an empty
// project under the OS temp folder: outside the repository, so nothing resolves from its node_modules;
// openapi-fetch and the MCP server SDK come from the npm registry (through the npm cache).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPackages, installTarballs, packPackages } from '../../packages/build.ts';

export const run = promisify(execFile);

export interface InstalledProject {
  dir: string;
  tarballs: { sdk: string; launcher: string };
  remove(): void;
}

/** npm's output without the warnings about this machine's npm configuration. */
export function withoutNpmWarnings(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n');
}

export async function installPackages(label: string): Promise<InstalledProject> {
  const root = mkdtempSync(join(tmpdir(), `service-packages-${label}-`));
  const dir = join(root, 'project');
  await buildPackages();
  const tarballs = packPackages(join(root, 'tarballs'));
  await installTarballs(dir, tarballs);
  const remove = () => {
    removeNpxInstalls(root);
    rmSync(root, { recursive: true, force: true });
  };
  return { dir, tarballs, remove };
}

/** `npx -y --package <tarball>` installs into npm's _npx cache: remove the installs of tarballs under `root`. */
function removeNpxInstalls(root: string): void {
  const npx = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_npx');
  if (!existsSync(npx)) return;
  for (const entry of readdirSync(npx)) {
    const manifest = join(npx, entry, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(root))
      rmSync(join(npx, entry), { recursive: true, force: true });
  }
}

// The machine's trust and proxy settings, which every process on it inherits: without them a Node that
// carries its own CA list (the Node 24 of CI) cannot reach the npm registry through an intercepting proxy.
const MACHINE_NETWORK = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
];

/** The env a desktop client gives a server it spawns: PATH and HOME, the machine's network settings, plus what its configuration names. */
export function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  const network = Object.fromEntries(
    MACHINE_NETWORK.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...network, ...extra };
}
