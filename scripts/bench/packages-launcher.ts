// The installable `service-mcp` launcher against today's (bin/service-mcp.js inside the server package):
// installed size and package count, and the time from spawn to the answer to tools/list. Both launchers
// check their key against a stub API answering 200, so the API's own speed is not in the figure. The
// start-up goal is absolute (under 1 s), so the time row has no ratio goal and the note judges it.
import { spawn } from 'node:child_process';
import { readdirSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPackages, installTarballs, packPackages } from '../../packages/build.ts';
import type { Goal, RowResult } from './row-runner.ts';
import { meets } from './row-runner.ts';
import { median } from './stats.ts';

export interface PackagesResult {
  rows: RowResult[];
  notes: string[];
}

/** Bytes under `dir`, symlinks not followed. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else total += lstatSync(path).size;
  }
  return total;
}

/** Installed packages, as npm's hidden lockfile lists them. */
function packageCount(project: string): number {
  const lock = JSON.parse(readFileSync(join(project, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/')).length;
}

function stubApi(): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Milliseconds from spawn to the tools/list answer on stdout. */
function timeToToolsList(script: string, apiBase: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [script], {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SERVICE_API_KEY: 'svc_bench',
      SERVICE_API_BASE: apiBase,
    },
  });
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  child.stdin.write(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (!stdout.includes('"id":2')) return;
      const elapsed = performance.now() - started;
      child.kill();
      resolve(elapsed);
    });
    child.on('close', (code) =>
      stdout.includes('"id":2') ? undefined : reject(new Error(`${script} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

const sizeGoal: Goal = { op: '<=', value: 0.1 };
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function packagesRows(
  repoRoot: string,
  runs: number,
  progress: (line: string) => void,
): Promise<PackagesResult> {
  const root = mkdtempSync(join(tmpdir(), 'bench-packages-'));
  const api = await stubApi();
  try {
    progress('building, packing and installing the packages');
    await buildPackages();
    const project = join(root, 'project');
    await installTarballs(project, packPackages(join(root, 'tarballs')));
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const installed = join(project, 'node_modules/service-mcp/dist/service-mcp.js');
    const today = join(repoRoot, 'bin/service-mcp.js');
    const times = { installed: [] as number[], today: [] as number[] };
    for (let i = 0; i < runs; i += 1) {
      // Alternate which goes first, so neither always starts on a file cache the other just warmed.
      const order = i % 2 === 0 ? (['installed', 'today'] as const) : (['today', 'installed'] as const);
      for (const which of order)
        times[which].push(await timeToToolsList(which === 'installed' ? installed : today, base));
    }
    progress(`timed ${runs} cold starts of each launcher`);
    const [sizeA, sizeB] = [sizeOf(join(project, 'node_modules')), sizeOf(join(repoRoot, 'node_modules'))];
    const [countA, countB] = [packageCount(project), packageCount(repoRoot)];
    const [timeA, timeB] = [median(times.installed), median(times.today)];
    const row = (label: string, a: string, b: string, ratio: number, goal?: Goal): RowResult => ({
      label,
      a,
      b,
      ratio,
      goal,
      met: meets(ratio, goal),
    });
    return {
      rows: [
        row('service-mcp installed size: package / server install', mb(sizeA), mb(sizeB), sizeA / sizeB, sizeGoal),
        row(
          'service-mcp installed packages: package / server install',
          String(countA),
          String(countB),
          countA / countB,
          sizeGoal,
        ),
        row(
          'service-mcp spawn → tools/list answered: package / bin/service-mcp.js',
          `${Math.round(timeA)} ms`,
          `${Math.round(timeB)} ms`,
          timeA / timeB,
        ),
      ],
      notes: [
        `service-mcp cold start (median of ${runs}, node on the installed dist/service-mcp.js): ${Math.round(timeA)} ms; goal under 1 s: ${timeA < 1000 ? 'met' : 'not met'}. npx adds its own start-up to either launcher.`,
      ],
    };
  } finally {
    api.close();
    rmSync(root, { recursive: true, force: true });
  }
}
