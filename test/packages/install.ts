// Builds and packs packages/sdk and packages/service-mcp, and installs the two tarballs into an empty
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
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(root)) rmSync(join(npx, entry), { recursive: true, force: true });
  }
}

/** The env a desktop client gives a server it spawns: PATH and HOME, plus what its configuration names. */
export function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}
