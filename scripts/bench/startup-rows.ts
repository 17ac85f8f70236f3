// Start-up rows: the time from `npm start` (built already) to the first 200 on /healthz on embedded PGlite, with
// an existing data folder and with a new one, each the median of cold starts against the floor, a plain
// `node -e` that opens the same kind of folder with PGlite and runs one query. The goals are absolute (1 s and
// 3 s, issue 32), so the rows carry no ratio goal and a note judges them. The notes also give, from the service's
// own log lines, when each start-up step began (median milliseconds after the spawn), which says where time goes,
// and the CPU each spent up to its first answer, which a loaded machine's wall times hide (Linux: /proc).
// A third kind, the npm floor, is `npm start` of a project whose start script is the floor: what npm and node's own
// start add to opening the folder, so the least any service started by `npm start` on this PGlite can take here.
// Each kind is timed on every Node line given: the machine's (the one the service runs on by default) and the
// development dependency's Node 22, which has the compile cache Node 20 lacks (scripts/build.ts). A line's first
// start, before the timed ones, fills its compile cache, as an installed service's first start does.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { node22 } from '../../test/helpers/node22.ts';
import { buildService } from '../build.ts';
import type { RowResult } from './row-runner.ts';
import { median } from './stats.ts';

export interface StartupResult {
  rows: RowResult[];
  notes: string[];
}

interface Start {
  ms: number;
  /** Milliseconds after the spawn at which each logged message first appeared (pino's `time`). */
  steps: Map<string, number>;
  /** CPU milliseconds spent up to the first answer, all processes and threads; undefined where /proc is missing. */
  cpuMs?: number;
}

const FLOOR = `const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create(process.env.FLOOR_DATA_DIR);
await db.query('select 1');
const cpu = process.cpuUsage();
process.stdout.write(\`ready \${(cpu.user + cpu.system) / 1000}\\n\`);
await db.close();`;

function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

const stepName = (msg: string) => msg.replace(/ (at|on) .*/, '');

// /proc/<pid>/stat after the command's closing parenthesis: state is field 3, so field n is at index n - 3.
const PGRP = 5 - 3;
const TIMES = [14, 15, 16, 17].map((field) => field - 3); // utime, stime, and those of reaped children
const TICK_MS = 10; // /proc counts in USER_HZ, 100 a second on Linux

/** CPU of every process in the group so far, reaped children included (npm's lifecycle shell, node). */
function groupCpuMs(pgid: number): number | undefined {
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let fields: string[];
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      } catch {
        continue; // exited meanwhile
      }
      if (Number(fields[PGRP]) === pgid) for (const i of TIMES) ticks += Number(fields[i]);
    }
  } catch {
    return undefined;
  }
  return ticks * TICK_MS;
}

/** The environment whose `node` (for npm, and for npm's `exec node`) is `node`. */
const onLine = (node: string): NodeJS.ProcessEnv =>
  node === process.execPath ? process.env : { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };

/** Spawns `npm start` in its own process group, polls /healthz until 200, stops the group. */
async function timeServiceStart(repoRoot: string, dataDir: string, node: string): Promise<Start> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...onLine(node), DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  let ms: number | undefined;
  while (ms === undefined) {
    if (exited) throw new Error(`npm start exited before /healthz answered:\n${out}`);
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) ms = performance.now() - started;
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const cpuMs = groupCpuMs(child.pid as number);
  process.kill(-(child.pid as number), 'SIGTERM');
  await exit;
  const steps = new Map<string, number>();
  for (const text of out.split('\n').filter(Boolean)) {
    const line = JSON.parse(text) as { msg: string; time: number };
    const name = stepName(line.msg);
    if (!steps.has(name)) steps.set(name, line.time - spawnedAt);
  }
  return { ms, steps, cpuMs };
}

/**
 * A project of its own under the repository's .tmp/ (so the floor's import finds node_modules), whose `npm start`
 * runs the floor the way the service's runs scripts/run-built.js: `exec node <file>`.
 */
function npmFloorProject(repoRoot: string): string {
  mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(repoRoot, '.tmp', 'bench-npm-floor-'));
  const scripts = { start: 'exec node floor.mjs' };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'npm-floor', private: true, type: 'module', scripts }),
  );
  writeFileSync(join(dir, 'floor.mjs'), FLOOR);
  return dir;
}

/** Spawns the floor (through `npm start` of `npmProject` when given) and resolves once it answered one query. */
function timeFloor(repoRoot: string, dataDir: string, node: string, npmProject?: string): Promise<Start> {
  const started = performance.now();
  const [command, args, cwd] = npmProject
    ? ['npm', ['start', '--silent'], npmProject]
    : [node, ['--input-type=module', '-e', FLOOR], repoRoot];
  const child = spawn(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...onLine(node), FLOOR_DATA_DIR: dataDir },
  });
  return new Promise((resolve, reject) => {
    let ms: number | undefined;
    let cpuMs: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      const ready = /ready ([\d.]+)/.exec(chunk.toString());
      if (ms === undefined && ready) [ms, cpuMs] = [performance.now() - started, Number(ready[1])];
    });
    child.on('exit', (code) =>
      ms === undefined ? reject(new Error(`the floor exited ${code}`)) : resolve({ ms, steps: new Map(), cpuMs }),
    );
  });
}

function stepsNote(label: string, starts: Start[]): string {
  // Up to the listening line: what follows (the signup hint, the request, the stop) is after the first 200.
  const all = [...(starts[0]?.steps.keys() ?? [])];
  const names = all.slice(0, all.findIndex((name) => name.startsWith('listening')) + 1);
  const at = names.map((name) => {
    const values = starts.map((s) => s.steps.get(name)).filter((v): v is number => v !== undefined);
    return `${name} ${Math.round(median(values))}`;
  });
  return `Start-up steps, ${label} (median ms after the spawn of npm start at which each first log line appeared): ${at.join(' · ')}.`;
}

/** The Node lines to time: the machine's, and the development dependency's Node 22 where it is installed. */
export function startupNodeLines(): string[] {
  return existsSync(node22) ? [process.execPath, node22] : [process.execPath];
}

const versionOf = (node: string): string =>
  node === process.execPath ? process.version : execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

export async function startupRows(
  repoRoot: string,
  runs: number,
  progress: (line: string) => void,
  nodes: string[] = startupNodeLines(),
): Promise<StartupResult> {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    dirs.push(dir);
    return dir;
  };
  try {
    const built = await buildService();
    progress(`built dist/ in ${built.ms} ms; timing ${runs} cold starts of each kind on ${nodes.length} Node line(s)`);
    const npmProject = npmFloorProject(repoRoot);
    dirs.push(npmProject);
    const result: StartupResult = { rows: [], notes: [] };
    for (const node of nodes) {
      const line = await timeLine(repoRoot, node, runs, npmProject, newDir);
      progress(`timed ${runs} cold starts of the service and of the floor on Node ${line.version}`);
      result.rows.push(...line.rows);
      result.notes.push(...line.notes);
    }
    return result;
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function timeLine(
  repoRoot: string,
  node: string,
  runs: number,
  npmProject: string,
  newDir: () => string,
): Promise<StartupResult & { version: string }> {
  const version = versionOf(node);
  const on = `Node ${version}`;
  const existing = newDir();
  // Makes the folder, and fills this line's compile cache (Node 22.1 and later).
  await timeServiceStart(repoRoot, existing, node);
  const times = {
    existing: [] as Start[],
    existingFloor: [] as Start[],
    existingNpmFloor: [] as Start[],
    fresh: [] as Start[],
    freshFloor: [] as Start[],
  };
  for (let i = 0; i < runs; i += 1) {
    // Alternate which goes first, so neither always starts on a file cache the other just warmed.
    const pairs: [Start[], () => Promise<Start>][] = [
      [times.existing, () => timeServiceStart(repoRoot, existing, node)],
      [times.existingFloor, () => timeFloor(repoRoot, existing, node)],
      [times.existingNpmFloor, () => timeFloor(repoRoot, existing, node, npmProject)],
      [times.fresh, () => timeServiceStart(repoRoot, newDir(), node)],
      [times.freshFloor, () => timeFloor(repoRoot, newDir(), node)],
    ];
    if (i % 2) pairs.reverse();
    for (const [into, time] of pairs) into.push(await time());
  }
  const ms = (starts: Start[]) => median(starts.map((s) => s.ms));
  const row = (label: string, service: Start[], floor: Start[]): RowResult => ({
    label: `${label} (${on})`,
    a: `${Math.round(ms(service))} ms`,
    b: `${Math.round(ms(floor))} ms`,
    ratio: ms(service) / ms(floor),
  });
  const cpu = (starts: Start[]) => {
    const values = starts.map((s) => s.cpuMs).filter((v): v is number => v !== undefined);
    return values.length ? `${Math.round(median(values))} ms` : 'not measured';
  };
  const cpuNote = (label: string, service: Start[], floor: Start[]) =>
    `CPU up to the first answer, ${label}, ${on} (median; the service: npm, its shell and node with all their threads; the floor: node): ${cpu(service)} / ${cpu(floor)}.`;
  const judge = (what: string, value: number, goal: number) =>
    `${what}, ${on}: ${Math.round(value)} ms (median of ${runs}); goal under ${goal / 1000} s: ${value < goal ? 'met' : 'not met'}.`;
  return {
    version,
    rows: [
      row(
        'start-up, existing PGlite folder: npm start → /healthz 200 / node -e opening it',
        times.existing,
        times.existingFloor,
      ),
      row(
        'start-up, existing PGlite folder: npm start → /healthz 200 / npm start of a script that only opens it',
        times.existing,
        times.existingNpmFloor,
      ),
      row('start-up, new PGlite folder: npm start → /healthz 200 / node -e creating it', times.fresh, times.freshFloor),
    ],
    notes: [
      judge('Start-up on an existing PGlite folder, npm start to the first /healthz 200', ms(times.existing), 1000),
      judge('Start-up on a new PGlite folder, npm start to the first /healthz 200', ms(times.fresh), 3000),
      `The least \`npm start\` can take to an answer from an existing PGlite folder here, ${on} (npm start of a project whose start script only opens it and runs one query, median of ${runs}): ${Math.round(ms(times.existingNpmFloor))} ms, of which opening it is ${Math.round(ms(times.existingFloor))} ms (node -e); the 1 s goal is ${ms(times.existingNpmFloor) < 1000 ? 'above' : 'below'} it on this machine now.`,
      cpuNote('existing folder', times.existing, times.existingFloor),
      cpuNote('new folder', times.fresh, times.freshFloor),
      stepsNote(`existing folder, ${on}`, times.existing),
      stepsNote(`new folder, ${on}`, times.fresh),
    ],
  };
}
