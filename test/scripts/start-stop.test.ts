// `npm start` as a user runs it: a signal to the process they started stops the whole tree, after
// in-flight requests finish, and leaves the embedded database free for the next start.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.ts';
import { playHuman, type Connector } from '../handlers/connectors/human.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const started: ChildProcess[] = [];
afterAll(() => {
  // Only if a test failed half-way: never leave a server of ours running.
  for (const child of started) if (groupAlive(child.pid!)) killGroup(child.pid!, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  port: number;
  dataDir: string;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  waitForLog(msg: RegExp): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `npm start` in its own process group, on a fresh data folder and a free port. */
async function npmStart(env: Record<string, string> = {}): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'start-stop-'));
  dirs.push(dataDir);
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  started.push(child);
  const logs: Record<string, unknown>[] = [];
  const waiters: { msg: RegExp; resolve: (line: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const text of lines) {
      const line = JSON.parse(text) as Record<string, unknown>; // the log stays JSON lines
      logs.push(line);
      for (const w of waiters) if (w.msg.test(String(line.msg))) w.resolve(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLog = (msg: RegExp) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = logs.find((line) => msg.test(String(line.msg)));
      if (seen) return resolve(seen);
      waiters.push({ msg, resolve });
      void exited.then(() => reject(new Error(`exited before logging ${msg}; stderr: ${stderr}`)));
    });
  const listening = await waitForLog(/^listening on /);
  return { child, port: listening.port as number, dataDir, logs, waitForLog, exited };
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** True while any process of the group (npm, a shell, node) is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function expectStoppedCleanly(s: Started): Promise<void> {
  expect(await s.exited).toEqual({ code: 0, signal: null });
  // npm has exited; the server (and anything else it started) must not outlive it.
  await waitUntil(() => !groupAlive(s.child.pid!));
  expect(await answers(s.port)).toBe(false);
  const db = await openDatabase({ dataDir: s.dataDir });
  expect((await db.sql`select count(*)::int as n from schema_migrations`)[0].n).toBeGreaterThan(0);
  await db.close();
}

const signupBody = (email: string) =>
  JSON.stringify({ email, password: 'correct horse battery staple', name: 'Ada', workspace_name: 'Acme' });

describeEmbeddedOnly('npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the whole process tree and frees the database on ${signal} to the npm process`, async () => {
      const s = await npmStart();
      expect(await answers(s.port)).toBe(true);
      process.kill(s.child.pid!, signal);
      await expectStoppedCleanly(s);
      expect(s.logs.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    });
  }

  it('finishes an in-flight request before it exits', async () => {
    const s = await npmStart();
    const body = signupBody('drain@example.com');
    const request = await openRequest(s.port, Buffer.byteLength(body), body.slice(0, 20));
    process.kill(s.child.pid!, 'SIGTERM');
    await s.waitForLog(/^shutting down$/);
    expect(await answers(s.port)).toBe(false); // no new connections once draining
    request.socket.write(body.slice(20));
    // The server, not the client, closes the kept-alive connection once the response is out.
    await request.closed;
    expect(request.response()).toMatch(/\r\n\r\nHTTP\/1\.1 201 /);
    await expectStoppedCleanly(s);
  });

  it('closes requests still open after SHUTDOWN_TIMEOUT_MS and exits non-zero', async () => {
    const s = await npmStart({ SHUTDOWN_TIMEOUT_MS: '300' });
    const request = await openRequest(s.port, 100, '{');
    process.kill(s.child.pid!, 'SIGTERM');
    await s.waitForLog(/^shutting down$/);
    await request.closed; // never finished by the client: the server gives up on it
    expect((await s.exited).code).not.toBe(0);
    await waitUntil(() => !groupAlive(s.child.pid!));
    expect(s.logs.find((line) => line.msg === 'shutdown timed out')).toMatchObject({ level: 40, open_requests: 1 });
    const db = await openDatabase({ dataDir: s.dataDir });
    await db.close();
  });
});

describeEmbeddedOnly('npm start with a long-poll open', () => {
  it('answers open long-polls (REST and MCP) with the current state on SIGTERM and exits 0 without waiting out SHUTDOWN_TIMEOUT_MS', async () => {
    const s = await npmStart({ SHUTDOWN_TIMEOUT_MS: '60000' });
    const signedUp = await send(s.port, 'POST', '/api/v1/users/signup', {}, signupBody('longpoll@example.com')).answer;
    const auth = {
      authorization: `Bearer ${(JSON.parse(signedUp.body) as { login: { access_token: string } }).login.access_token}`,
    };
    const started = await send(s.port, 'POST', '/api/v1/connectors/oauth', auth, JSON.stringify({ provider: 'gmail' }))
      .answer;
    const connector = JSON.parse(started.body) as { id: string; status: string };
    expect(connector.status).toBe('pending_consent'); // nobody consents: only the shutdown can end these waits
    const rest = send(s.port, 'GET', `/api/v1/connectors/${connector.id}?wait_seconds=50`, auth);
    const mcpCall = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_connector', arguments: { connector_id: connector.id, wait_seconds: 50 } },
    };
    const mcp = send(s.port, 'POST', '/mcp', { ...auth, ...mcpHeaders }, JSON.stringify(mcpCall));
    await Promise.all([rest.written, mcp.written]);
    // Answered after both long-polls were written: the server has read them (they came first) and holds them.
    expect((await send(s.port, 'GET', `/api/v1/connectors/${connector.id}`, auth).answer).status).toBe(200);

    process.kill(s.child.pid!, 'SIGTERM');
    // Both bounds that could end these waits otherwise are far: the waits' own 50 s, and the 60 s timeout.
    const limit = new Promise((resolve) => setTimeout(() => resolve('still running at half the wait'), 25_000).unref());
    expect(await Promise.race([s.exited, limit])).toEqual({ code: 0, signal: null });
    expect(s.logs.find((line) => line.msg === 'shutting down')).toMatchObject({ open_requests: 2 });
    const restAnswer = await rest.answer;
    expect(restAnswer.status).toBe(200);
    expect(JSON.parse(restAnswer.body)).toMatchObject({ id: connector.id, status: 'pending_consent' });
    const mcpAnswer = await mcp.answer;
    expect(mcpAnswer.status).toBe(200);
    expect(JSON.parse(mcpAnswer.body)).toMatchObject({
      result: { structuredContent: { id: connector.id, status: 'pending_consent' } },
    });
    expect(s.logs.find((line) => line.msg === 'shutdown timed out')).toBeUndefined();
    await waitUntil(() => !groupAlive(s.child.pid!));
  }, 120_000);
});

const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** One request on its own connection: `written` once it is all handed to the socket, `answer` with the whole response. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method,
    path,
    agent: false,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
  });
  const written = new Promise<void>((resolve) => req.once('finish', resolve));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
  });
  req.end(body);
  return { written, answer };
}

describeEmbeddedOnly('npm start with PORT=0', () => {
  it('hands out addresses with the port the system chose: the first-account link, and a sandbox Gmail consent that completes', async () => {
    const s = await npmStart();
    const signupUrl = `http://127.0.0.1:${s.port}/admin/signup`;
    expect(await s.waitForLog(/^No accounts yet/)).toMatchObject({ signup_url: signupUrl });
    const signedUp = await send(s.port, 'POST', '/api/v1/users/signup', {}, signupBody('port0@example.com')).answer;
    const auth = {
      authorization: `Bearer ${(JSON.parse(signedUp.body) as { login: { access_token: string } }).login.access_token}`,
    };
    const started = await send(s.port, 'POST', '/api/v1/connectors/oauth', auth, JSON.stringify({ provider: 'gmail' }))
      .answer;
    const connector = JSON.parse(started.body) as Connector;
    expect(new URL(connector.authorization_url!).port).toBe(String(s.port));
    // The callback exchanges the code at the sandbox provider's own address, which names the port as well.
    const page = await playHuman(connector.authorization_url!, { email: 'port0@example.com' });
    expect(page.status).toBe(200);
    const after = await send(s.port, 'GET', `/api/v1/connectors/${connector.id}`, auth).answer;
    expect(JSON.parse(after.body)).toMatchObject({ status: 'connected', account_email: 'port0@example.com' });
    process.kill(s.child.pid!, 'SIGTERM');
    await expectStoppedCleanly(s);
  });
});

describeEmbeddedOnly('npm start with KEEP_ALIVE_TIMEOUT_MS', () => {
  it("keeps an idle keep-alive connection open past Node's 5 s default when told to, and closes it on SIGTERM", async () => {
    const s = await npmStart({ KEEP_ALIVE_TIMEOUT_MS: '60000' });
    const socket = connect(s.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let closedAt: number | undefined;
    void closed.then(() => (closedAt = Date.now()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await waitUntil(() => /\r\n\r\n/.test(received));
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/\r\nKeep-Alive: timeout=60\r\n/i);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closedAt).toBeUndefined(); // Node's default would have closed it at 5 s
    process.kill(s.child.pid!, 'SIGTERM');
    await closed;
    await expectStoppedCleanly(s);
  });
});

// The PostgreSQL pool must end too, or node would keep running; a private schema keeps the run apart.
describe.runIf(process.env.DATABASE_URL)('npm start on PostgreSQL', () => {
  it('drains and exits 0 on SIGTERM to the npm process', async () => {
    const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    const schema = `start_stop_${process.pid}_${Date.now()}`;
    await admin.sql.unsafe(`create schema ${schema}`);
    try {
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('search_path', schema); // postgres.js sends unknown URL parameters to the server
      const s = await npmStart({ DATABASE_URL: url.toString() });
      expect(s.logs.find((line) => line.database)).toMatchObject({ database: 'postgres' });
      const body = signupBody('drain.pg@example.com');
      const request = await openRequest(s.port, Buffer.byteLength(body), body.slice(0, 20));
      process.kill(s.child.pid!, 'SIGTERM');
      await s.waitForLog(/^shutting down$/);
      request.socket.write(body.slice(20));
      await request.closed;
      expect(request.response()).toMatch(/\r\n\r\nHTTP\/1\.1 201 /);
      expect(await s.exited).toEqual({ code: 0, signal: null });
      await waitUntil(() => !groupAlive(s.child.pid!));
      expect(await answers(s.port)).toBe(false);
      expect(await admin.sql.unsafe(`select 1 from ${schema}.users where email = 'drain.pg@example.com'`)).toHaveLength(
        1,
      );
    } finally {
      await admin.sql.unsafe(`drop schema ${schema} cascade`);
      await admin.close();
    }
  });
});

/**
 * Sends a signup request's headers and the start of its body, and returns once the server has
 * the request in hand: `Expect: 100-continue` makes Node answer "100 Continue" as it parses it.
 */
async function openRequest(port: number, contentLength: number, firstPart: string) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let response = '';
  const closed = new Promise((resolve) => socket.on('close', resolve));
  const continued = new Promise<void>((resolve) =>
    socket.on('data', (chunk) => {
      response += chunk.toString();
      if (response.startsWith('HTTP/1.1 100 ')) resolve();
    }),
  );
  socket.write(
    'POST /api/v1/users/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Expect: 100-continue\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
  await continued;
  socket.write(firstPart);
  return { socket, closed, response: () => response };
}
