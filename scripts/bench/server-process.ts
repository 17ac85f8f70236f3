// Parent side of child-protocol.ts: starts a server script in its own Node process (with tsx) and
// talks to it over IPC.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { ChildMessage, ParentMessage } from './child-protocol.ts';

export interface ServerProcess {
  name: string;
  url: string;
  info: Record<string, string>;
  /** The child's process id (its memory can be read from /proc/<pid>/status). */
  pid: number;
  /** The child's user + system CPU time so far, in microseconds. */
  cpuMicros(): Promise<number>;
  /** Asks the child to close its server and exit; kills it if it has not after a grace period. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  env?: Record<string, string>;
  /** Extra Node flags, for example `--cpu-prof`. */
  execArgv?: string[];
  cwd: string;
  startTimeoutMs?: number;
}

function nextMessage(
  child: ChildProcess,
  type: ChildMessage['type'] | 'ready-or-error',
  timeoutMs: number,
): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`no "${type}" message from the child within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message: ChildMessage) => {
      if (type === 'ready-or-error' ? message.type === 'ready' || message.type === 'error' : message.type === type)
        finish(undefined, message);
    };
    const onExit = (code: number | null) =>
      finish(new Error(`the child exited (code ${code}) before sending "${type}"`));
    function finish(error?: Error, message?: ChildMessage) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function startServerProcess(
  name: string,
  script: string,
  options: ServerProcessOptions,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.execArgv ?? []), '--import', 'tsx', script], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    // stdout (access logs, if enabled) is discarded; stderr shows crashes.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const ready = await nextMessage(child, 'ready-or-error', options.startTimeoutMs ?? 120_000).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${name}: ${error.message}`);
  });
  if (ready.type === 'error') throw new Error(`${name} failed to start: ${ready.message}`);
  if (ready.type !== 'ready') throw new Error(`${name}: unexpected message ${ready.type}`);
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  // One question in flight at a time, so each answer belongs to its question.
  function ask(question: ParentMessage & { type: 'cpu' }): Promise<ChildMessage> {
    const answer = queue.then(() => {
      const reply = nextMessage(child, question.type, 30_000);
      child.send(question);
      return reply;
    });
    queue = answer.catch(() => undefined);
    return answer;
  }

  return {
    name,
    url: ready.url,
    info: ready.info,
    pid: child.pid as number,
    async cpuMicros() {
      const answer = await ask({ type: 'cpu' });
      if (answer.type !== 'cpu') throw new Error(`${name}: unexpected message ${answer.type}`);
      return answer.micros;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
      else child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
