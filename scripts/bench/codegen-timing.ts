// Times the whole code generator against openapi-typescript alone on the same document, each as a
// fresh child process (start-up included, as a user runs them), alternating which goes first.
// Besides wall time it records each child's CPU time (from the kernel's count of reaped children),
// which a busy shared machine disturbs far less.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recursiveGroup } from '../../test/codegen/synthetic-recursive-group.ts';
import { meets, type Goal, type RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';

export interface CodegenTimingOptions {
  repoRoot: string;
  /** The optional corpus of real documents; without it the repository's synthetic recursive group is timed. */
  specsDir: string;
  tmpDir: string;
  runs: number;
  progress?: (line: string) => void;
}

export interface Timing {
  wallMs: number;
  /** Undefined where /proc is not available. */
  cpuMs?: number;
}

export interface CodegenTimingResult {
  spec: string;
  ours: Timing[];
  openapiTypescript: Timing[];
  row: RowResult;
}

const goal: Goal = { op: '<=', value: 1.5 };

export function largestSpec(dir: string): string {
  const specs = readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/i.test(f))
    .map((f) => ({ path: join(dir, f), size: statSync(join(dir, f)).size }))
    .sort((a, b) => b.size - a.size);
  if (!specs.length) throw new Error(`no OpenAPI documents in ${dir}`);
  return specs[0].path;
}

/** The largest real document when the optional corpus is there, else a repository-owned one written to tmpDir. */
export function benchSpec(options: Pick<CodegenTimingOptions, 'specsDir' | 'tmpDir' | 'progress'>): string {
  const hasDocs = existsSync(options.specsDir) && readdirSync(options.specsDir).some((f) => /\.(ya?ml|json)$/i.test(f));
  if (hasDocs) return largestSpec(options.specsDir);
  const file = join(options.tmpDir, 'recursive-group.json');
  writeFileSync(file, JSON.stringify(recursiveGroup()));
  options.progress?.(
    `${options.specsDir} is absent (an optional corpus): timing the synthetic recursive group instead`,
  );
  return file;
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time of this process's terminated, waited-for children (Linux /proc), in ms. */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5), cutime and cstime; the slice starts at field 3.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

function timeRun(args: string[], cwd: string): Promise<Timing> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const cpuAfter = childrenCpuMs();
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      resolve({ wallMs, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore });
    });
  });
}

function spreadOf(ratios: number[]): [number, number] {
  return [quantile(ratios, 0.25), quantile(ratios, 0.75)];
}

export async function timeCodegen(options: CodegenTimingOptions): Promise<CodegenTimingResult> {
  const spec = benchSpec(options);
  const cli = join(options.repoRoot, 'node_modules/openapi-typescript/bin/cli.js');
  let n = 0;
  const ours = () =>
    timeRun(
      ['--import', 'tsx', 'scripts/codegen.ts', '--spec', spec, '--out', join(options.tmpDir, `ours-${(n += 1)}`)],
      options.repoRoot,
    );
  const theirs = () =>
    timeRun([cli, spec, '-o', join(options.tmpDir, `openapi-typescript-${(n += 1)}.ts`)], options.repoRoot);
  const result = { ours: [] as Timing[], openapiTypescript: [] as Timing[] };
  for (let i = 0; i < options.runs; i += 1) {
    // Alternate which goes first, so neither always runs on a cache the other just warmed.
    if (i % 2 === 0) {
      result.ours.push(await ours());
      result.openapiTypescript.push(await theirs());
    } else {
      result.openapiTypescript.push(await theirs());
      result.ours.push(await ours());
    }
    options.progress?.(`codegen run ${i + 1}/${options.runs} done`);
  }
  const wall = (ts: Timing[]) => median(ts.map((t) => t.wallMs));
  const cpu = (ts: Timing[]) => (ts.every((t) => t.cpuMs !== undefined) ? median(ts.map((t) => t.cpuMs!)) : undefined);
  const ratio = wall(result.ours) / wall(result.openapiTypescript);
  const [cpuOurs, cpuTheirs] = [cpu(result.ours), cpu(result.openapiTypescript)];
  return {
    spec,
    ...result,
    row: {
      label: `codegen time on ${spec.split('/').pop()}: ours / openapi-typescript alone`,
      a: `${(wall(result.ours) / 1000).toFixed(2)} s`,
      b: `${(wall(result.openapiTypescript) / 1000).toFixed(2)} s`,
      ratio,
      cpuRatio: cpuOurs !== undefined && cpuTheirs ? cpuOurs / cpuTheirs : undefined,
      spread: spreadOf(result.ours.map((t, i) => t.wallMs / result.openapiTypescript[i].wallMs)),
      goal,
      met: meets(ratio, goal),
    },
  };
}
