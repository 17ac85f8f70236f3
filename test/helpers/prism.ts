// Starts Prism (`prism mock` or `prism proxy`) as a child process on a free port, waits until it
// answers, and stops its whole process group. Prism takes seconds to start: start one per test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const contractPath = join(repoRoot, 'openapi/openapi.yaml');

/** Problems Prism writes itself carry a type under this URI; the upstream's never do. */
export const prismErrorType = 'https://stoplight.io/prism/errors#';

export interface PrismServer {
  url: string;
  /** The last lines Prism printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface PrismOptions {
  spec?: string;
  /** Extra CLI flags, e.g. ['--errors'] or ['--dynamic']. */
  flags?: readonly string[];
  readyTimeoutMs?: number;
}

// node_modules/.bin/node is removed on purpose, so run the CLI's JS with this very Node binary.
function prismCli(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: { prism: string } }).bin.prism;
  return join(dirname(pkgPath), bin);
}

/** The flags of `npm run mock` without port and host, so tests serve exactly what consumers get. */
export function npmMockFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  // `exec` makes Prism the process npm started, so npm's stop signal reaches it (test/scripts/mock.test.ts).
  const words = pkg.scripts.mock.split(/\s+/).filter(Boolean);
  if (words[0] !== 'exec' || words[1] !== 'prism' || words[2] !== 'mock')
    throw new Error(`npm run mock is not "exec prism mock …": ${pkg.scripts.mock}`);
  const flags: string[] = [];
  for (let i = 3; i < words.length; i++) {
    const word = words[i];
    if (['-p', '--port', '-h', '--host'].includes(word)) i += 1;
    else if (word.startsWith('-')) flags.push(word);
  }
  return flags;
}

/** A port that was free a moment ago: lets a server and the Prism in front of it start at the same time. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

// A test process that ends without its afterAll (an exit, or a signal from the runner or a CI
// timeout) must not leave Prism behind: Prism runs in its own group, so no signal reaches it by itself.
const killAll = () => {
  for (const child of running) killGroup(child, 'SIGKILL');
};
process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    // Keep the signal's usual effect when nobody else handles it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      killGroup(child, 'SIGKILL'); // anything the CLI forked and left in its group
      done();
    });
    killGroup(child, 'SIGTERM');
  });
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`prism exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`);
    try {
      // Any HTTP answer (Prism says 404 for an unknown path) means it is serving.
      await fetch(`${url}/__prism_ready__`, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`prism did not answer on ${url} within ${timeoutMs} ms:\n${output()}`);
}

async function startPrism(args: string[], options: PrismOptions): Promise<PrismServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [prismCli(), ...args, '-p', String(port), '-h', '127.0.0.1', ...(options.flags ?? [])],
    {
      cwd: repoRoot,
      detached: true, // its own process group, so stop() reaches everything it starts
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    },
  );
  running.add(child);
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const server: PrismServer = { url: `http://127.0.0.1:${port}`, output: () => log, stop: () => stopChild(child) };
  try {
    await waitUntilReady(server.url, child, server.output, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** `prism mock <spec>`: answers from the contract's examples and schemas. */
export function startPrismMock(options: PrismOptions = {}): Promise<PrismServer> {
  return startPrism(['mock', options.spec ?? contractPath], options);
}

/** `prism proxy <spec> <upstream>`: forwards to upstream and validates requests and responses. */
export function startPrismProxy(upstream: string, options: PrismOptions = {}): Promise<PrismServer> {
  return startPrism(['proxy', options.spec ?? contractPath, upstream], options);
}

/** One response on which Prism reported something: its `sl-violations` and, if Prism answered itself, its problem. */
export interface PrismReport {
  request: string;
  status: number;
  violations: unknown[];
  /** Set when Prism answered instead of the upstream (request refused, or --errors and a response violation). */
  prismProblem?: { type: string; title?: string; status?: number; validation?: unknown[] };
}

function parseViolationHeader(value: string | null): unknown[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(value.replace(/^Too many violations! /, '')) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [value]; // truncated: still a violation
  }
}

/**
 * A fetch for clients of a Prism server that records every response Prism reported on:
 * a `sl-violations` header (any severity: an undeclared 4xx is only a warning) or a problem whose
 * type is Prism's own (`…/prism/errors#VIOLATIONS` with --errors, `#UNPROCESSABLE_ENTITY`, `#UNAUTHORIZED`).
 */
export function watchPrism(inner: (request: Request) => Promise<Response> = (request) => fetch(request)) {
  const reports: PrismReport[] = [];
  const watched = async (request: Request): Promise<Response> => {
    const label = `${request.method} ${new URL(request.url).pathname}`;
    const response = await inner(request);
    const violations = parseViolationHeader(response.headers.get('sl-violations'));
    let prismProblem: PrismReport['prismProblem'];
    if ((response.headers.get('content-type') ?? '').includes('json') && response.status >= 400) {
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as PrismReport['prismProblem'] | undefined;
      if (typeof body?.type === 'string' && body.type.startsWith(prismErrorType)) prismProblem = body;
    }
    if (violations.length || prismProblem)
      reports.push({ request: label, status: response.status, violations, prismProblem });
    return response;
  };
  return {
    fetch: watched,
    reports,
    /** Removes and returns the reports matching `predicate` (for requests made invalid on purpose). */
    take(predicate: (report: PrismReport) => boolean): PrismReport[] {
      const taken = reports.filter(predicate);
      for (const report of taken) reports.splice(reports.indexOf(report), 1);
      return taken;
    },
  };
}

export type PrismWatch = ReturnType<typeof watchPrism>;
