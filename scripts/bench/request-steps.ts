// What each step of an API-key-authenticated read costs, measured in one process with no network: the same
// read (one workspace row by primary key, as the auth rows' bench route) through apps that add the service's
// layers one at a time, each request sent with `app.fetch` and its body read, 10 in flight as the HTTP rounds' connections. The cost of a
// step is the difference between two neighbouring variants' CPU per request (median over interleaved rounds).
// Run alone: npx tsx scripts/bench/request-steps.ts [--rounds N] [--requests N] (DATABASE_URL for PostgreSQL);
// scripts/bench.ts runs it too unless --skip-steps, and prints the table in its notes.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono, type MiddlewareHandler } from 'hono';
import pino from 'pino';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { Deps } from '../../src/deps.ts';
import type { OperationMeta } from '../../src/generated/routes.ts';
import { operationGuard } from '../../src/http/operation-guard.ts';
import { requestContext, type AppEnv, type CarriedContext } from '../../src/http/request-context.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { validationHook } from '../../src/http/validation.ts';
import { createServices } from '../../src/services.ts';
import { openBenchDatabase } from './bench-database.ts';
import { benchReadPaths, mountBenchRoutes, readRoute } from './bench-routes.ts';
import { median } from './stats.ts';

export interface StepsSettings {
  rounds: number;
  requests: number;
  /** Only the variants whose name contains this (for profiling one with --cpu-prof). */
  only?: string;
}

export interface StepRow {
  variant: string;
  /** CPU (user + system) of this process per request, µs: with PGlite that includes the database. */
  cpuMicros: number;
  wallMicros: number;
  /** CPU added over the row named `over`. */
  addedMicros?: number;
  over?: string;
}

type Fetch = (request: Request) => Response | Promise<Response>;
interface Variant {
  name: string;
  fetch: Fetch;
  path: string;
  authorization?: string;
  headers?: Record<string, string>;
  /** A POST with these headers and body instead of a GET. */
  post?: { headers: Record<string, string>; body: string };
}

const MODERN = '2026-07-28';
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const mcpCall = (meta?: object) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_me', arguments: {}, ...(meta && { _meta: meta }) },
  });

const PATH = '/steps/read';
/** Variants that add one layer each to the one before; then the two with the query. */
const LAYERS = 8;
/** Requests in flight at once, as the HTTP rounds' connections. */
const IN_FLIGHT = 10;

/** The route handler every variant ends in, as bench-routes.ts serves it. */
function readHandler(deps: Deps) {
  const { sql } = deps.db;
  return async (id: string) => {
    const [row] = await sql<{ id: string; name: string; created_at: Date }[]>`
      select id, name, created_at from workspaces where id = ${id}`;
    return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
  };
}

const ROW = { id: 'ws_0', name: 'Bench', created_at: '2026-01-01T00:00:00.000Z' };

function variants(deps: Deps, apiKey: string, infoDeps: Deps, principal: Principal): Variant[] {
  const read = readHandler(deps);
  const op: OperationMeta = {
    operationId: 'bench_read',
    handler: 'get_me',
    method: 'GET',
    path: PATH,
    scopes: ['users:read'],
    body: null,
    responses: {},
  };
  const guardOptions = {
    authenticator: deps.auth.authenticator,
    limiter: deps.auth.limiter,
    rateLimit: deps.config.rateLimit,
  };
  const [authenticate, requireScopes, throttle] = operationGuard(op, guardOptions);
  const context = requestContext({ log: deps.log, trustProxy: false });
  /** Hono with zod-openapi's validated route answering ROW, after the given middleware. */
  const layered = (...chain: MiddlewareHandler<AppEnv>[]): Fetch => {
    const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
    for (const m of chain) app.use(PATH, m);
    app.openapi(readRoute(PATH), (c) => c.json({ ...ROW, id: c.req.valid('query').id }, 200));
    return (request) => app.fetch(request);
  };
  /** The whole service app with the guarded route answering ROW (no query) or reading the row (the bench route). */
  const service = (d: Deps) => {
    const app = createApp(d);
    mountBenchRoutes(app, d);
    const chain = operationGuard(op, guardOptions) as [MiddlewareHandler<AppEnv>, ...MiddlewareHandler<AppEnv>[]];
    app.on('GET', PATH, ...chain);
    app.openapi(readRoute(PATH), (c) => c.json({ ...ROW, id: c.req.valid('query').id }, 200));
    return app;
  };
  const bare = new Hono();
  bare.get(PATH, (c) => c.json({ ...ROW, id: c.req.query('id') }));
  const plain = new Hono();
  plain.get(PATH, async (c) => c.json(await read(c.req.query('id') ?? '')));
  const key = `Bearer ${apiKey}`;
  const serviceApp = service(deps);
  const loggedApp = service(infoDeps);
  const withService: Fetch = (r) => serviceApp.fetch(r);
  const withLog: Fetch = (r) => loggedApp.fetch(r);
  const carried: CarriedContext = { principal, requestId: 'steps-request-id', clientAddress: '127.0.0.1' };
  return [
    { name: 'Hono, constant JSON', fetch: (r) => bare.fetch(r), path: PATH },
    { name: '+ zod-openapi route (query validated, storable-text check)', fetch: layered(), path: PATH },
    { name: '+ requestContext (request id, access log off)', fetch: layered(context), path: PATH },
    {
      name: '+ authenticate (API key: parse, cache, HMAC, creator role)',
      fetch: layered(context, authenticate),
      path: PATH,
      authorization: key,
    },
    { name: '+ requireScopes', fetch: layered(context, authenticate, requireScopes), path: PATH, authorization: key },
    {
      name: '+ throttle (rate-limit check, RateLimit headers)',
      fetch: layered(context, authenticate, requireScopes, throttle),
      path: PATH,
      authorization: key,
    },
    { name: 'the same in createApp (body limit, every route)', fetch: withService, path: PATH, authorization: key },
    { name: '+ access log at info (pino to /dev/null)', fetch: withLog, path: PATH, authorization: key },
    { name: 'Hono + the query (postgres.js), no middleware', fetch: (r) => plain.fetch(r), path: PATH },
    {
      name: 'the bench route (c): createApp + the query',
      fetch: withService,
      path: benchReadPaths.protected,
      authorization: key,
    },
    { name: 'REST GET /api/v1/users/me', fetch: withService, path: '/api/v1/users/me', authorization: key },
    {
      name: 'MCP tools/call get_me (2025-06-18)',
      fetch: withService,
      path: '/mcp',
      authorization: key,
      post: { headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }, body: mcpCall() },
    },
    {
      name: 'MCP tools/call get_me (2026-07-28)',
      fetch: withService,
      path: '/mcp',
      authorization: key,
      post: {
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_me' },
        body: mcpCall({
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        }),
      },
    },
    {
      name: 'MCP tools/list on /mcp?tools=discover (an exchange with no tool call)',
      fetch: withService,
      path: '/mcp?tools=discover',
      authorization: key,
      post: {
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
    },
    {
      name: "get_me's REST request as a tool call sends it (context carried, no authentication)",
      fetch: (r) => serviceApp.fetch(r, { carried }),
      path: '/api/v1/users/me',
      headers: { accept: 'application/json, application/problem+json, text/*;q=0.8', 'x-service-client': 'mcp' },
    },
  ];
}

async function timeVariant(v: Variant, query: string, requests: number): Promise<{ cpu: number; wall: number }> {
  const url = `http://localhost${v.path}${v.post ? '' : query}`;
  const headers: Record<string, string> = {
    ...v.headers,
    ...v.post?.headers,
    ...(v.authorization && { authorization: v.authorization }),
  };
  // A client's POST declares its length, as autocannon's do (the app counts the body only when none is declared).
  const post = v.post && { ...headers, 'content-length': String(Buffer.byteLength(v.post.body)) };
  const init = v.post ? { method: 'POST', headers: post, body: v.post.body } : { headers };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const worker = async (count: number) => {
    for (let i = 0; i < count; i += 1) {
      const res = await v.fetch(new Request(url, init));
      if (res.status !== 200) throw new Error(`${v.name}: status ${res.status}: ${await res.text()}`);
      await res.text();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => worker(requests / IN_FLIGHT)));
  const wall = ((performance.now() - started) * 1000) / requests;
  const used = process.cpuUsage(cpuBefore);
  return { cpu: (used.user + used.system) / requests, wall };
}

async function credentials(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }) {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const signup = (await post('/api/v1/users/signup', {
    email: `steps.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    name: 'Steps',
    workspace_name: 'Steps',
  })) as { workspace: { id: string }; login: { access_token: string } };
  const key = (await post('/api/v1/api-keys', { name: 'steps' }, signup.login.access_token)) as { key: string };
  return { workspaceId: signup.workspace.id, apiKey: key.key };
}

/** The layers add up from the first row to the access log; the query and MCP rows are differences to a row before. */
function addedCosts(rows: StepRow[]): void {
  const added = (i: number, over: number) => {
    rows[i].addedMicros = rows[i].cpuMicros - rows[over].cpuMicros;
    rows[i].over = rows[over].variant;
  };
  for (let i = 1; i < LAYERS; i += 1) added(i, i - 1);
  added(LAYERS, 0);
  added(LAYERS + 1, LAYERS - 2);
  added(LAYERS + 3, LAYERS + 2);
  added(LAYERS + 4, LAYERS + 2);
  added(LAYERS + 6, LAYERS + 2);
}

export async function measureRequestSteps(
  settings: StepsSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void = () => {},
): Promise<{ database: string; rows: StepRow[] }> {
  const db = await openBenchDatabase(databaseUrl);
  const unlimited = '1000000000';
  const env = { LOG_LEVEL: 'silent', RATE_LIMIT_PER_CREDENTIAL: unlimited, RATE_LIMIT_PER_ADDRESS: unlimited };
  try {
    await migrate(db.sql);
    const services = await createServices({ db, config: loadConfig(env) });
    try {
      const deps = services.deps;
      const { workspaceId, apiKey } = await credentials(createApp(deps));
      const infoDeps: Deps = { ...deps, log: pino({ level: 'info' }, pino.destination('/dev/null')) };
      const principal = await deps.auth.authenticator.authenticate(`Bearer ${apiKey}`);
      if (principal?.kind !== 'api_key') throw new Error('the steps API key does not authenticate');
      const all = variants(deps, apiKey, infoDeps, principal).filter(
        (v) => !settings.only || v.name.includes(settings.only),
      );
      const query = `?id=${encodeURIComponent(workspaceId)}`;
      for (const v of all) await timeVariant(v, query, Math.max(200, settings.requests / 5));
      const cpu = new Map<string, number[]>(all.map((v) => [v.name, []]));
      const wall = new Map<string, number[]>(all.map((v) => [v.name, []]));
      for (let round = 0; round < settings.rounds; round += 1) {
        const shift = round % all.length;
        for (const v of [...all.slice(shift), ...all.slice(0, shift)]) {
          const t = await timeVariant(v, query, settings.requests);
          cpu.get(v.name)!.push(t.cpu);
          wall.get(v.name)!.push(t.wall);
        }
        progress(`request steps: round ${round + 1}/${settings.rounds} done`);
      }
      const rows: StepRow[] = all.map((v) => ({
        variant: v.name,
        cpuMicros: median(cpu.get(v.name)!),
        wallMicros: median(wall.get(v.name)!),
      }));
      if (!settings.only) addedCosts(rows);
      return { database: db.description, rows };
    } finally {
      await services.close();
    }
  } finally {
    await db.close();
  }
}

export function renderSteps(result: { database: string; rows: StepRow[] }, settings: StepsSettings): string[] {
  const fmt = (n: number) => n.toFixed(1);
  const sign = (n: number) => (n >= 0 ? `+${fmt(n)}` : fmt(n));
  return [
    `Request steps (scripts/bench/request-steps.ts): the API-key read's layers added one at a time, then the query, ` +
      `then an MCP tools/call against the REST call it wraps; in this process with app.fetch (no socket, no ` +
      `node-server adapter), ${IN_FLIGHT} requests in flight, ${settings.rounds} interleaved rounds of ` +
      `${settings.requests} requests, median CPU µs per request of the process (${result.database}; with PGlite the ` +
      `database's own work is in it), then the difference to the row named in brackets: ` +
      result.rows
        .map(
          (r) =>
            `${r.variant}: ${fmt(r.cpuMicros)}` +
            (r.addedMicros === undefined
              ? ''
              : ` (${sign(r.addedMicros)} over ${r.over === undefined ? '' : `“${r.over}”`})`),
        )
        .join('; ') +
      '. Differences of a few µs are within the noise of a loaded machine.',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: { rounds: { type: 'string' }, requests: { type: 'string' }, only: { type: 'string' } },
  });
  const settings = { rounds: Number(values.rounds ?? 7), requests: Number(values.requests ?? 2000), only: values.only };
  const result = await measureRequestSteps(settings, process.env.DATABASE_URL || undefined, (line) =>
    process.stderr.write(`${line}\n`),
  );
  for (const r of result.rows)
    console.log(
      `${r.variant.padEnd(70)} ${r.cpuMicros.toFixed(1).padStart(7)} µs CPU ${r.wallMicros.toFixed(1).padStart(7)} µs wall` +
        (r.addedMicros === undefined
          ? ''
          : `  ${r.addedMicros >= 0 ? '+' : ''}${r.addedMicros.toFixed(1)} over ${r.over}`),
    );
  process.exit(0);
}
