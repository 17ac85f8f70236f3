// What `npm start` runs since the service is built (scripts/build.ts): plain JavaScript under plain node, no
// TypeScript loader, files read at run time found in the repository, stack traces that name the .ts lines, and on
// Node 22 and later V8's compiled code kept between starts (Node's compile cache).
import { builtinModules } from 'node:module';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildService, COMPILE_CACHE } from '../../scripts/build.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';
import { node22 } from '../helpers/node22.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository (git-ignored), so the bundles' package imports resolve to node_modules as dist/'s do.
mkdirSync(join(root, '.tmp'), { recursive: true });
const outDir = mkdtempSync(join(root, '.tmp', 'built-service-'));
const dataDir = mkdtempSync(join(tmpdir(), 'built-service-'));
beforeAll(() => buildService(outDir));
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  msg: string;
  [field: string]: unknown;
}

const migrationFiles = readdirSync(join(root, 'src/db/migrations')).filter((name) => name.endsWith('.sql'));
const compileCache = join(outDir, 'bundle', COMPILE_CACHE);
// The cache lives in one folder per Node version and V8 (Node names them `v22.23.3-x64-…`).
const cacheFolders = (): string[] => (existsSync(compileCache) ? readdirSync(compileCache).sort() : []);

interface Started {
  lines: LogLine[];
  healthz: number;
  panelScript: string;
  stderr: string;
}

/** Starts the built entry with plain node (`node`) on this file's data folder, waits for /healthz, stops it. */
async function startBuilt(node = process.execPath, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  // Node reads the compile cache's settings by their presence, an empty value included: they are left out.
  const { NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE, ...inherited } = process.env;
  const child = spawn(node, [join(outDir, 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      NODE_OPTIONS: '',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      OUTBOUND_ALLOW_PRIVATE: '',
      ...env,
    },
  });
  const lines: LogLine[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const text of complete) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        if (line.msg.startsWith('listening on ')) resolve(line.port as number);
      }
    });
    void exited.then(() => reject(new Error(`exited before listening: ${JSON.stringify(lines)}\n${stderr}`)));
  });
  const healthz = (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
  const shell = await (await fetch(`http://127.0.0.1:${port}/admin`)).text();
  const script = /src="(\/admin\/assets\/[0-9a-f]+\/app\.js)"/.exec(shell)?.[1];
  const panelScript = script ? await (await fetch(`http://127.0.0.1:${port}${script}`)).text() : '';
  child.kill('SIGTERM');
  await exited;
  return { lines, healthz, panelScript, stderr };
}

function bundleText(): string {
  const bundleDir = join(outDir, 'bundle');
  const files = readdirSync(bundleDir).filter((name) => name.endsWith('.js'));
  return files.map((name) => readFileSync(join(bundleDir, name), 'utf8')).join('\n');
}

/** Module specifiers the built files import, statically or dynamically (loosely: strings in the text count too). */
function importedSpecifiers(): string[] {
  const text = bundleText();
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]);
}

describeEmbeddedOnly('the built service', () => {
  it('imports no TypeScript and no TypeScript loader, and only the packages that must load from node_modules', () => {
    const specifiers = importedSpecifiers();
    // esbuild writes each import of a module it leaves out as a statement of its own line, or as import("…").
    const loaded = [...bundleText().matchAll(/^import [^;]*from "([^"]+)";$|\bimport\("([^"]+)"\)/gm)].map(
      (m) => m[1] ?? m[2],
    );
    const packages = new Set(
      loaded.filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s)),
    );
    // Everything else, Hono and pg-boss included, is inside the bundles: a start reads a few files, not a thousand.
    expect([...packages].sort()).toEqual([
      '@electric-sql/pglite',
      '@electric-sql/pglite-socket',
      '@node-rs/argon2',
      'pino',
    ]);
    expect(specifiers.filter((s) => s.endsWith('.ts') || s === 'tsx' || s.startsWith('tsx/'))).toEqual([]);
  });

  it('reads the admin panel from the built folder, so esbuild is never loaded at run time', () => {
    expect(bundleText()).toContain(JSON.stringify(join('.tmp', outDir.split('/').at(-1)!, 'admin')));
    expect(readdirSync(join(outDir, 'admin')).sort()).toEqual(['app.css', 'app.css.map', 'app.js', 'app.js.map']);
  });

  it("creates a new data folder from the build's template, migrated already, and answers /healthz under plain node", async () => {
    const { lines, healthz } = await startBuilt();
    expect(healthz).toBe(200);
    const messages = lines.map((line) => line.msg);
    expect(messages[0]).toBe('starting');
    expect(messages[1]).toMatch(`creating embedded database at ${dataDir}`);
    // The build migrated the template (src/first-start-template.ts): a first start has nothing left to apply.
    expect(lines.find((line) => line.msg === 'running migrations')).toMatchObject({
      migrations: migrationFiles.length,
      pending: 0,
    });
    expect(lines.filter((line) => line.msg === 'applied migration')).toEqual([]);
    const order = ['creating embedded database', 'running migrations', 'starting services', 'listening on '].map(
      (start) => messages.findIndex((msg) => msg.startsWith(start)),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('opens the existing data folder on a restart and applies nothing', async () => {
    const { lines, healthz, panelScript } = await startBuilt();
    expect(healthz).toBe(200);
    // The admin panel's script is the one built into dist/admin/, not bundled again at run time.
    expect(panelScript).toBe(readFileSync(join(outDir, 'admin', 'app.js'), 'utf8'));
    expect(lines.map((line) => line.msg)).toContain(`opening embedded database at ${dataDir}`);
    expect(lines.find((line) => line.msg === 'running migrations')?.pending).toBe(0);
    expect(lines.filter((line) => line.msg === 'applied migration')).toEqual([]);
  });

  it('keeps no compile cache on a Node line without one (Node 20), and one per Node version on Node 22', async () => {
    // The starts above ran on this process's Node.
    const [major] = process.versions.node.split('.').map(Number);
    if (major < 22) expect(cacheFolders()).toEqual([]);
    else expect(cacheFolders()).toEqual([expect.stringMatching(`^v${process.versions.node}-`)]);
    const { healthz } = await startBuilt(node22);
    expect(healthz).toBe(200);
    const version = execFileSync(node22, ['--version'], { encoding: 'utf8' }).trim();
    expect(cacheFolders()).toContainEqual(expect.stringMatching(`^${version.replaceAll('.', '\\.')}-`));
  });

  it("loads the bundles' compiled code from the compile cache on a restart on Node 22, and not when it is turned off", async () => {
    // Node says what it did with each module's cache under this debug setting.
    const debug = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
    const accepted = (stderr: string) =>
      [...stderr.matchAll(/cache for file:\/\/\S+\/bundle\/(\S+\.js) was accepted/g)].map((m) => m[1]);
    const restart = await startBuilt(node22, debug);
    expect(restart.healthz).toBe(200);
    // The entry's bundle and the service's largest one, the app with its routes.
    expect(accepted(restart.stderr)).toEqual(expect.arrayContaining(['main.js', expect.stringMatching(/^app-/)]));
    const off = await startBuilt(node22, { ...debug, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.healthz).toBe(200);
    expect(accepted(off.stderr)).toEqual([]);
  });

  it.each([
    ['this process', process.execPath],
    ['Node 22, its compile cache filled', node22],
  ])('names the .ts file and line of a thrown error in its stack trace (%s)', async (_, node) => {
    const child = spawn(node, [join(outDir, 'main.js')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      // Half of a pair of settings: loadConfig throws before the service starts, and the fatal line carries the error.
      env: { ...process.env, NODE_OPTIONS: '', META_APP_ID: 'only-half', META_APP_SECRET: '' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    const stack = (JSON.parse(stdout) as { err: { stack: string } }).err.stack;
    const source = readFileSync(join(root, 'src/config.ts'), 'utf8').split('\n');
    const line = source.findIndex((text) => text.includes("throw new Error('set both META_APP_ID")) + 1;
    const file = join(root, 'src/config.ts').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(stack).toMatch(new RegExp(`at loadConfig \\(${file}:${line}:\\d+\\)`));
  });
});
