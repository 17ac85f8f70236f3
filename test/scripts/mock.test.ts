// `npm run mock` as a user runs it: stopping npm (Ctrl-C, or SIGTERM from a process manager) stops Prism
// with it, and nothing it started keeps the port.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/prism.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const groups: number[] = [];
afterAll(() => {
  // Only if a test failed: never leave a Prism of ours running.
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
});

/** True while any process of the group (npm, a shell, Prism) is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function answers(url: string): Promise<boolean> {
  return fetch(url).then(
    () => true,
    () => false,
  );
}

describe('npm run mock', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`leaves no Prism process behind on ${signal} to the npm process`, async () => {
      const port = await freePort();
      // In its own process group, as a terminal runs it, so the group shows everything it started.
      const npm = spawn('npm', ['run', 'mock', '--silent'], {
        cwd: root,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, MOCK_PORT: String(port) },
      });
      groups.push(npm.pid!);
      const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
      let output = '';
      await new Promise<void>((resolve, reject) => {
        npm.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Prism is listening on')) resolve();
        });
        void exited.then(() => reject(new Error(`npm run mock exited before Prism listened:\n${output}`)));
      });
      expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(true);

      process.kill(npm.pid!, signal);
      await exited;
      // npm waits for the process it started before it exits: once npm is gone, so is everything it ran.
      expect(groupAlive(npm.pid!)).toBe(false);
      expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false);
    });
  }
});
