// Runs a TypeScript entry as a real Node process (through tsx) and reads its stdout line by line,
// for tests that start, watch and kill worker processes.
import { spawn, type ChildProcess } from 'node:child_process';

export interface LineProcess {
  process: ChildProcess;
  /** Resolves with the first stdout line `accept` takes (a prefix, or a test); rejects if the process exits first. */
  line(accept: string | ((line: string) => boolean)): Promise<string>;
  exited: Promise<number | null>;
}

export function spawnLineProcess(entry: string, env: Record<string, string>, args: string[] = []): LineProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
