// `npm start` on a fresh install says where to create the first account, and says nothing of it once
// there is one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'first-account-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  /** Resolves with the port once the server listens. */
  listening: Promise<number>;
  /** Stops the server and resolves with every message it logged. */
  stop(): Promise<string[]>;
}

/** What `npm start` runs (the build, made first when stale), on the one data folder of this file and a port the system chooses. */
function start(): Run {
  const child = spawn(process.execPath, ['scripts/run-built.js', 'main'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: '0',
      PUBLIC_BASE_URL: '',
      LOG_LEVEL: 'info',
    },
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /"msg":"listening on http:\/\/127\.0\.0\.1:(\d+)"/.exec(out)?.[1];
      if (port) resolve(Number(port));
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${out}`)));
  });
  const messages = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => String((JSON.parse(line) as { msg: unknown }).msg));
  return {
    listening,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return messages();
    },
  };
}

describe('npm start', () => {
  // Two starts on a new data folder: 19-26 s in CI, 47-58 s seen with both legs loaded. A bound on a hang.
  it('prints where to create the first account while there is none, and not once there is one', {
    timeout: 180_000,
  }, async () => {
    const fresh = start();
    const port = await fresh.listening;
    const signup = await fetch(`http://127.0.0.1:${port}/api/v1/users/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'first@example.com',
        password: 'correct horse battery',
        name: 'First',
        workspace_name: 'First',
      }),
    });
    expect(signup.status).toBe(201);
    const before = await fresh.stop();
    expect(before).toContain(
      `No accounts yet: create the first one at http://127.0.0.1:${port}/admin/signup (or POST /api/v1/users/signup).`,
    );
    expect(before.indexOf(`listening on http://127.0.0.1:${port}`)).toBe(
      before.findIndex((m) => m.startsWith('No accounts yet')) - 1,
    );

    const again = start();
    const portAgain = await again.listening;
    const after = await again.stop();
    expect(after).toContain(`listening on http://127.0.0.1:${portAgain}`);
    expect(after.filter((m) => m.startsWith('No accounts yet'))).toEqual([]);
  });
});
