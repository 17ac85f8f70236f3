// Spawns test/leads/fixtures/import-worker.ts as a real process and reads its stdout lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./fixtures/import-worker.ts', import.meta.url));

export interface ImportWorker {
  process: ChildProcess;
  /** Resolves with the first stdout line `accept` takes; rejects if the process exits first. */
  line(accept: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
}

export function spawnImportWorker(env: Record<string, string>): ImportWorker {
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
    async line(accept) {
      for (;;) {
        const found = lines.find(accept);
        if (found !== undefined) return found;
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        const exit = await Promise.race([more.then(() => undefined), exited.then((code) => ({ code }))]);
        if (exit && !lines.some(accept)) throw new Error(`the import worker exited (${exit.code}) first; it printed:\n${lines.join('\n')}`);
      }
    },
  };
}
