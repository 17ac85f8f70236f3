// Builds the installable packages: the SDK with tsc (JavaScript + declarations) from its own sources and a
// copy of src/generated's SDK files (made here, never committed: the repository holds one copy), the launcher
// bundled with esbuild into one file that imports only the SDK package and the MCP server SDK. `--pack <dir>` also runs
// `npm pack` on both and writes the tarballs to <dir>. Run through `npm run build:packages`.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SDK_PACKAGE, SDK_SOURCES } from '../scripts/codegen/emit-packages.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const sdkDir = fileURLToPath(new URL('./sdk/', import.meta.url));
const launcherDir = fileURLToPath(new URL('./launcher/', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

/** Copies the generated SDK files into the SDK package (packages/sdk/src/generated/, git-ignored). */
function copySdkSources(): void {
  const dest = `${sdkDir}src/generated/`;
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const name of SDK_SOURCES) copyFileSync(`${root}src/generated/${name}`, `${dest}${name}`);
}

function typescript(project: string): void {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
}

// The launcher reaches the SDK's runtime through the server's copy (src/generated/sdk-runtime.ts); in the
// package that import is the SDK package, so the bundle carries neither it nor openapi-fetch.
const sdkRuntimeIsThePackage = {
  name: 'sdk-runtime-is-the-package',
  setup(b: { onResolve(o: { filter: RegExp }, f: () => { path: string; external: boolean }): void }) {
    b.onResolve({ filter: /\/generated\/sdk-runtime\.ts$/ }, () => ({ path: SDK_PACKAGE, external: true }));
  },
};

async function bundleLauncher(): Promise<void> {
  await build({
    entryPoints: [`${launcherDir}src/service-mcp.ts`],
    outfile: `${launcherDir}dist/service-mcp.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*', SDK_PACKAGE],
    plugins: [sdkRuntimeIsThePackage],
    // ajv is CommonJS: its bundled requires need a `require` in an ES module.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
}

export async function buildPackages(): Promise<void> {
  rmSync(`${sdkDir}dist`, { recursive: true, force: true });
  rmSync(`${launcherDir}dist`, { recursive: true, force: true });
  copySdkSources();
  typescript(`${sdkDir}tsconfig.json`);
  typescript(`${launcherDir}tsconfig.json`);
  await bundleLauncher();
}

/** Packs both packages into `dest`; returns the tarballs' paths, SDK first. */
export function packPackages(destination: string): { sdk: string; launcher: string } {
  const dest = resolve(destination);
  mkdirSync(dest, { recursive: true });
  const pack = (dir: string) => {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return `${dest}/${(JSON.parse(out) as { filename: string }[])[0].filename}`;
  };
  return { sdk: pack(sdkDir), launcher: pack(launcherDir) };
}

/**
 * Installs the tarballs into `dir` as a fresh project would (`npm install <tarballs>`); their dependencies
 * come from the npm registry, through the npm cache when it has them.
 */
export async function installTarballs(dir: string, tarballs: { sdk: string; launcher: string }): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
  await promisify(execFile)(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarballs.sdk, tarballs.launcher],
    { cwd: dir },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { pack: { type: 'string' } } });
  await buildPackages();
  console.log('built packages/sdk/dist and packages/launcher/dist');
  if (values.pack) console.log(Object.values(packPackages(values.pack)).join('\n'));
}
