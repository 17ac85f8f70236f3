// Builds the real app on a fresh test database (PGlite, or a PostgreSQL schema when DATABASE_URL is
// set), with helpers to sign up users and mint keys through the public API.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import type { Clock } from '../../src/clock.ts';
import { createServices, type ServiceOptions, type Services } from '../../src/services.ts';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, jobsSchemaFor, newJobsSchemaName } from './db.ts';
import type { Database } from '../../src/db/connection.ts';

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse a database (e.g. two instances on one PostgreSQL schema). */
  db?: Database;
  /**
   * Start the job queue on a private pg-boss schema: `work` (the default with `jobs`) also runs
   * jobs in this app, `enqueue` only queues them. Off by default: starting it on a new schema costs its DDL (a
   * database made here keeps the schema of its last app for the next, emptied: db.ts).
   */
  jobs?: 'work' | 'enqueue';
  /** pg-boss's schema; two instances sharing a database share one. */
  jobsSchema?: string;
  extraJobKinds?: ServiceOptions['extraJobKinds'];
  /** A logger to read what the service logs (default: silent). */
  log?: Logger;
}

export interface TestApp {
  app: App;
  deps: Deps;
  db: Database;
  config: AppConfig;
  services: Services;
  /** pg-boss's schema, when jobs were started. */
  jobsSchema?: string;
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  signup(overrides?: Partial<SignupBody>): Promise<SignupResult>;
  createKey(token: string, name?: string): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export interface SignupBody {
  email: string;
  password: string;
  name: string;
  workspace_name: string;
}

export interface SignupResult {
  token: string;
  userId: string;
  workspaceId: string;
  email: string;
  password: string;
}

// Light argon2 parameters keep the suite quick; the OWASP parameters are tested in test/auth.
const testArgon2 = { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 };
let counter = 0;
// Tests never write a key file into the checkout's data folder.
const testTokenKey = `test:${randomBytes(32).toString('base64')}`;

export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDb = !options.db;
  const db = options.db ?? (await createTestDatabase());
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_CREDENTIAL: '100000',
    RATE_LIMIT_PER_ADDRESS: '100000',
    JOBS_POLL_INTERVAL_MS: '500',
    TOKEN_ENCRYPTION_KEY: testTokenKey,
    ...options.env,
  });
  // A database made here keeps the pg-boss schema of an app without extra kinds for the next file (db.ts).
  const keptJobsSchema =
    options.jobs && ownDb && !options.jobsSchema && !options.extraJobKinds ? jobsSchemaFor(db) : undefined;
  const jobsSchema = options.jobs ? (options.jobsSchema ?? keptJobsSchema ?? newJobsSchemaName()) : undefined;
  const services = await createServices({
    db,
    config,
    clock: options.clock,
    log: options.log ?? pino({ level: 'silent' }),
    argon2Params: testArgon2,
    jobsSchema,
    extraJobKinds: options.extraJobKinds,
  });
  if (options.jobs) await services.startJobs({ work: options.jobs === 'work' });
  const app = createApp(services.deps);
  const request: TestApp['request'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return Promise.resolve(app.request(path, { ...init, headers, body }));
  };
  const signup: TestApp['signup'] = async (overrides = {}) => {
    const body = {
      email: uniqueEmail(),
      password: 'correct horse battery',
      name: 'Test User',
      workspace_name: 'Test Workspace',
      ...overrides,
    };
    const res = await request('/api/v1/users/signup', { method: 'POST', json: body });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
    const json = (await res.json()) as {
      user: { id: string };
      workspace: { id: string };
      login: { access_token: string };
    };
    return {
      token: json.login.access_token,
      userId: json.user.id,
      workspaceId: json.workspace.id,
      email: body.email,
      password: body.password,
    };
  };
  const createKey: TestApp['createKey'] = async (token, name = 'test key') => {
    const res = await request('/api/v1/api-keys', { method: 'POST', token, json: { name } });
    if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; key: string };
  };
  return {
    app,
    deps: services.deps,
    db,
    config,
    services,
    jobsSchema,
    request,
    signup,
    createKey,
    async close() {
      await services.close();
      if (jobsSchema && !options.jobsSchema && !keptJobsSchema)
        await db.sql.unsafe(`drop schema if exists ${jobsSchema} cascade`).catch(() => {});
      if (ownDb) await db.close();
    },
  };
}

/** Serves the app on a real port (127.0.0.1, chosen by the OS). */
export async function listen(app: App): Promise<{ url: string; server: ServerType; close(): Promise<void> }> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
