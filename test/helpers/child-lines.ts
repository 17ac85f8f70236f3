// Runs a TypeScript entry as a real Node process and reads its stdout line by line, for tests that start, watch
// and kill service, worker and fixture processes. The entry is bundled first (esbuild, once per entry and test
// process, again when a file it was made from changes) and run by plain node, as `npm start` runs the build:
// through tsx, each process spent seconds of CPU loading the service's sources, a module at a time.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from '../../scripts/build.ts';

export interface LineProcess {
  /** The process once it is spawned; kill() before that kills it as soon as it starts. */
  process: { kill(signal?: NodeJS.Signals): void; readonly exitCode: number | null };
  /** Resolves with the first stdout line `accept` takes (a prefix, or a test); rejects if the process exits first. */
  line(accept: string | ((line: string) => boolean)): Promise<string>;
  exited: Promise<number | null>;
}

interface Bundle {
  file: string;
  /** The repository's files it was made from, and when. */
  inputs: string[];
  builtAt: number;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundlesDir = join(root, '.tmp', `test-entries-${process.pid}`);
const bundles = new Map<string, Promise<Bundle>>();
let made = 0;

async function bundle(entry: string): Promise<Bundle> {
  if (made === 0) process.once('exit', () => rmSync(bundlesDir, { recursive: true, force: true }));
  const outdir = join(bundlesDir, String((made += 1)));
  const builtAt = Date.now();
  // As the build bundles the service, but with the packages loaded from node_modules: quicker to make.
  const result = await build({
    ...nodeBundleOptions(outdir),
    entryPoints: [entry],
    packages: 'external',
    logLevel: 'silent',
  });
  const [file] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint) ?? [];
  if (!file) throw new Error(`bundling ${entry} wrote no entry`);
  return { file: join(root, file), inputs: Object.keys(result.metafile.inputs), builtAt };
}

const changed = (previous: Bundle) =>
  previous.inputs.some((input) => {
    try {
      return statSync(join(root, input)).mtimeMs >= previous.builtAt;
    } catch {
      return true;
    }
  });

async function bundledEntry(entry: string): Promise<string> {
  const previous = await bundles.get(entry)?.catch(() => undefined);
  if (previous && !changed(previous)) return previous.file;
  const next = bundle(entry);
  bundles.set(entry, next);
  return (await next).file;
}

/**
 * Spawns `entry` with `args`; `through: 'tsx'` runs the source through tsx instead of the bundle, as a user runs
 * an example.
 */
export function spawnLineProcess(
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
  options: { through?: 'tsx' } = {},
): LineProcess {
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  let child: ChildProcess | undefined;
  let killWith: NodeJS.Signals | undefined;
  const nodeArgs =
    options.through === 'tsx'
      ? Promise.resolve(['--import', 'tsx', entry])
      : bundledEntry(entry).then((file) => ['--enable-source-maps', file]);
  const exited = nodeArgs.then(
    (argv) =>
      new Promise<number | null>((resolve) => {
        child = spawn(process.execPath, [...argv, ...args], {
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        child.once('exit', (code) => resolve(code));
        child.stdout?.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const parts = buffer.split('\n');
          buffer = parts.pop() ?? '';
          lines.push(...parts);
          for (const wake of waiters.splice(0)) wake();
        });
        if (killWith) child.kill(killWith);
      }),
  );
  return {
    process: {
      kill(signal = 'SIGTERM') {
        if (child) child.kill(signal);
        else killWith = signal;
      },
      get exitCode() {
        return child ? child.exitCode : null;
      },
    },
    exited,
    async line(accept) {
      const matches = typeof accept === 'string' ? (l: string) => l.startsWith(accept) : accept;
      for (;;) {
        const found = lines.find(matches);
        if (found !== undefined) return found;
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        const exit = await Promise.race([more.then(() => undefined), exited.then((code) => ({ code }))]);
        if (exit && !lines.some(matches))
          throw new Error(`${entry} exited (${exit.code}) before the awaited line; it printed:\n${lines.join('\n')}`);
      }
    },
  };
}
