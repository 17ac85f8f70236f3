// With FILE_CPU_LOG set to a file's path, vitest.config.ts loads this beside every test file: it appends one JSON
// line per file with the CPU its test process used while the file ran, its own and that of every process under it
// (Chromium, `npm start`, tsc, a spawned service), read from /proc. So the suite's profile is in CPU seconds, which
// on a loaded machine says more than each file's wall time: two CI legs share two cores. Linux only.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const log = process.env.FILE_CPU_LOG as string;
const tick = 100; // USER_HZ, the unit of /proc/<pid>/stat's times, on every Linux this runs on.

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks: the process's CPU and that of its children it has reaped. */
  ticks: number;
}

function readStat(pid: string): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** CPU ticks of this process and every living process under it (what they reaped included). */
function treeTicks(): { self: number; children: number } {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat) stats.set(Number(name), stat);
  }
  // The files are read one after another while processes come and go, so a reused pid could make the parent links
  // loop: the walk stops after as many steps as there are processes.
  const under = (pid: number): boolean => {
    let steps = stats.size;
    for (let p = stats.get(pid)?.ppid; p !== undefined && p > 1 && steps > 0; p = stats.get(p)?.ppid, steps -= 1)
      if (p === process.pid) return true;
    return false;
  };
  let children = 0;
  for (const [pid, stat] of stats) if (under(pid)) children += stat.ticks;
  const own = process.cpuUsage();
  const self = Math.round(((own.user + own.system) / 1e6) * tick);
  // Reaped children: the difference between this process's whole count and its own CPU (which is rounded to a tick).
  return { self, children: children + Math.max(0, (stats.get(process.pid)?.ticks ?? self) - self) };
}

let start: { self: number; children: number; wall: number } | undefined;

beforeAll(() => {
  start = { ...treeTicks(), wall: performance.now() };
});

afterAll(() => {
  if (!start) return;
  const end = treeTicks();
  const file = relative(process.cwd(), expect.getState().testPath ?? '');
  const line = {
    file,
    leg: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    self_s: (end.self - start.self) / tick,
    children_s: (end.children - start.children) / tick,
    wall_s: Math.round(performance.now() - start.wall) / 1000,
  };
  appendFileSync(log, `${JSON.stringify(line)}\n`);
});
