// Spawns test/jobs/fixtures/effects-worker.ts as a real process and reads its stdout lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./fixtures/effects-worker.ts', import.meta.url));

export interface ChildWorker {
  process: ChildProcess;
  /** Resolves with the first stdout line starting with `prefix`; rejects if the process exits first. */
  line(prefix: string): Promise<string>;
  exited: Promise<number | null>;
}

export function spawnWorker(env: Record<string, string>): ChildWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    exited,
    async line(prefix) {
      for (;;) {
        const found = lines.find((l) => l.startsWith(prefix));
        if (found) return found;
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        const code = await Promise.race([more.then(() => undefined), exited.then((c) => ({ c }))]);
        if (code && !lines.some((l) => l.startsWith(prefix))) throw new Error(`worker exited (${code.c}) before printing "${prefix}"`);
      }
    },
  };
}
