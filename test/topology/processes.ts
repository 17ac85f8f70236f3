// The processes of the topology test: the built service's entries under plain node (as `npm start` and
// `npm run worker` run them) and nginx, each a child of the test whose JSON log lines are read as they come.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
  /** The JSON log lines printed so far. */
  lines: Record<string, unknown>[];
  /** The end of what it wrote to stderr (nginx writes its start-up errors there). */
  stderr(): string;
  /** Resolves with the first log line whose `msg` passes `accept`; rejects if the process exits first. */
  logged(accept: (msg: string) => boolean): Promise<Record<string, unknown>>;
  /** Sends `signal` (default SIGKILL) if still running, and waits for the exit; SIGKILL after 10 s. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnChild(name: string, command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        lines.push({ msg: part });
      }
    }
    for (const wake of waiters.splice(0)) wake();
  });
  // Kept for the failure message, and printed when it looks like trouble (nginx writes its errors here).
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const found = (accept: (msg: string) => boolean) => lines.find((l) => accept(String(l.msg)));
  return {
    name,
    process: child,
    exited,
    lines,
    stderr: () => stderr,
    async logged(accept) {
      for (;;) {
        const line = found(accept);
        if (line) return line;
        const more = new Promise<void>((resolve) => waiters.push(resolve));
        const exit = await Promise.race([more.then(() => undefined), exited.then((code) => ({ code }))]);
        const late = found(accept);
        if (late) return late;
        if (exit)
          throw new Error(
            `${name} exited (${exit.code}) before the awaited line; it printed:\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n${stderr}`,
          );
      }
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** Debian's nginx binary, or why there is none (the test skips with this reason). */
export function findNginx(): { path: string } | { missing: string } {
  for (const path of ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) {
    if (existsSync(path) && spawnSync(path, ['-v']).status === 0) return { path };
  }
  return {
    missing: "nginx is not installed (npm test installs it as root; otherwise 'sudo apt-get install -y nginx')",
  };
}
