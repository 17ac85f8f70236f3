// What the service says while it starts (through tsx, as `npm run dev` runs it, and through the build `npm start`
// runs; test/scripts/built-service.test.ts has more of the build): its first line comes before the slow parts (loading the modules, creating or
// opening the database, migrating), each step is named as it begins, and a setting meant only for local use warns
// every time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

// What `npm run dev` runs, and what `npm start` runs (the build, made first when stale).
const DEV = ['--import', 'tsx', 'src/main.ts'];
const BUILT = ['scripts/run-built.js', 'main'];

/** Runs the service until it listens, stops it, and returns every line it logged. */
async function startUntilListening(env: Record<string, string>, args = DEV): Promise<LogLine[]> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'info', OUTBOUND_ALLOW_PRIVATE: '', ...env },
  });
  const lines: LogLine[] = [];
  let buffered = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const text of complete) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        if (line.msg.startsWith('listening on ')) resolve();
      }
    });
    void exited.then(() => reject(new Error(`exited before listening: ${JSON.stringify(lines)}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return lines;
}

/** Runs the service on the embedded database until it exits by itself; its exit code and every line it logged. */
async function runToExit(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; lines: LogLine[] }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = out
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as LogLine);
  return { code, lines };
}

const freshDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-up-log-'));
  dirs.push(dir);
  return dir;
};

describeEmbeddedOnly('npm start', () => {
  // Its first start through tsx transpiles the whole tree: about 10 s on a quiet machine, 58 s seen with both CI legs
  // running. A bound on a hang, not on speed.
  it('logs that it is starting before it opens the database, then each step and migration in order', {
    timeout: 180_000,
  }, async () => {
    const dataDir = freshDataDir();
    const lines = await startUntilListening({ DATA_DIR: dataDir });
    const messages = lines.map((line) => line.msg);
    expect(messages[0]).toBe('starting');
    const opening = messages.findIndex((msg) => msg.startsWith(`creating embedded database at ${dataDir}`));
    const migrating = messages.indexOf('running migrations');
    const firstMigration = messages.indexOf('applied migration');
    const listening = messages.findIndex((msg) => msg.startsWith('listening on '));
    expect(opening).toBeGreaterThan(0);
    expect([opening < migrating, migrating < firstMigration, firstMigration < listening]).toEqual([true, true, true]);
    const applied = lines.filter((line) => line.msg === 'applied migration').map((line) => line.migration);
    expect(applied[0]).toBe('0001_init.sql');
    expect(lines.find((line) => line.msg === 'running migrations')?.migrations).toBe(applied.length);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('warns at start-up when OUTBOUND_ALLOW_PRIVATE is on', async () => {
    const lines = await startUntilListening({ DATA_DIR: freshDataDir(), OUTBOUND_ALLOW_PRIVATE: 'true' }, BUILT);
    const warning = lines.findIndex((line) => line.level === 40 && line.setting === 'OUTBOUND_ALLOW_PRIVATE');
    expect(lines[warning].msg).toMatch(/^OUTBOUND_ALLOW_PRIVATE=true: .*never in production/);
    // Said before the slow steps, so it is on screen while the service starts.
    expect(warning).toBeLessThan(lines.findIndex((line) => line.msg.startsWith('creating ')));
  });

  it('exits 1 with one fatal line naming the address when its port is taken, and leaves the data folder free', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dataDir = freshDataDir();
    try {
      const { code, lines } = await runToExit(BUILT, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      expect(code).toBe(1);
      expect(lines.filter((line) => line.level === 60).map((line) => line.msg)).toEqual([
        `could not start: 127.0.0.1:${port} is already in use (PORT)`,
      ]);
      // The database was closed before the exit: its lock is gone.
      expect(existsSync(join(dataDir, 'service-mcp.lock'))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('exits 1 with one fatal line naming the holder when another process holds the data folder, and leaves its lock', async () => {
    const dataDir = freshDataDir();
    const lock = join(dataDir, 'service-mcp.lock');
    // This test's process is the holder: alive, and not the service.
    writeFileSync(lock, `${process.pid} ${Math.round(performance.timeOrigin)}`);
    const { code, lines } = await runToExit(BUILT, { DATA_DIR: dataDir, PORT: '0' });
    expect(code).toBe(1);
    expect(lines.filter((line) => line.level === 60).map((line) => line.msg)).toEqual(['could not start']);
    expect(JSON.stringify(lines.find((line) => line.level === 60))).toContain(
      `data folder ${dataDir} is in use by process ${process.pid}`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${Math.round(performance.timeOrigin)}`);
  });

  it('refuses a DATABASE_POOL_SIZE below 1 with one line naming it, and exits 1 before opening anything', async () => {
    const dataDir = freshDataDir();
    const { code, lines } = await runToExit(DEV, { DATA_DIR: dataDir, PORT: '0', DATABASE_POOL_SIZE: '0' });
    expect(code).toBe(1);
    expect(lines).toMatchObject([
      { level: 60, msg: 'invalid configuration: DATABASE_POOL_SIZE must be at least 1, got "0"' },
    ]);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
  });
});

describe.runIf(process.env.DATABASE_URL)('npm start on PostgreSQL', () => {
  it('names the server and database it opens, without the credentials', async () => {
    const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    const schema = `start_up_log_${process.pid}_${Date.now()}`;
    await admin.sql.unsafe(`create schema ${schema}`);
    try {
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('search_path', schema);
      url.password = 'not-for-the-log';
      url.username = url.username || 'postgres';
      const lines = await startUntilListening({ DATABASE_URL: url.toString(), PGPASSWORD: '' });
      expect(lines[0].msg).toBe('starting');
      expect(lines.map((line) => line.msg)).toContain(`opening PostgreSQL at ${url.host}${url.pathname}`);
      expect(JSON.stringify(lines)).not.toContain('not-for-the-log');
    } finally {
      await admin.sql.unsafe(`drop schema ${schema} cascade`);
      await admin.close();
    }
  });
});
