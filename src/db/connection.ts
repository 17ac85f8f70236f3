// Opens the database: PostgreSQL from a URL, or embedded PGlite served over a private unix
// socket so that both are reached through the same postgres.js client.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import postgres from 'postgres';
import { lockDataDir } from './data-dir-lock.ts';
import { failedSocket, noDelaySocket, type SocketTarget } from './postgres-sockets.ts';
import { guardPool } from './transaction-guard.ts';
import { watchReplies } from './reply-watchdog.ts';

export interface Database {
  /** The pool; it refuses to be queried from inside its own open transactions (transaction-guard.ts). */
  sql: postgres.Sql;
  kind: 'postgres' | 'pglite';
  /** The same database as a URL for other clients (the job library's `pg` pool); for PGlite it names the socket folder. */
  connectionString?: string;
  /** Options for such a `pg` pool that bound its waits as this client's are (PostgreSQL only). */
  pgOptions?: Record<string, unknown>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Folder holding the embedded database's files; created when missing. */
  dataDir?: string;
  /**
   * A new embedded data folder is unpacked from this dump of a fresh one (scripts/build.ts writes it) instead of
   * running initdb, which takes seconds; ignored for an existing folder, or when the file is missing.
   */
  initdbTemplate?: string;
  /** Keep the embedded database in memory only (tests). */
  memory?: boolean;
  /** Schema list set as `search_path` on every connection. */
  searchPath?: string;
  /** Connections of the PostgreSQL pool (DATABASE_POOL_SIZE, default 10). The embedded database always uses one. */
  poolSize?: number;
  /** PostgreSQL: the longest wait for a connection to open (TCP and start-up), default 10 s. */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: the longest a statement runs (the server's statement_timeout) and the longest a connection
   * may stay silent while a reply is awaited (src/db/reply-watchdog.ts), default 30 s.
   */
  queryTimeoutMs?: number;
  /**
   * Refuse pool queries from inside the pool's own open transactions (src/db/transaction-guard.ts),
   * default true. Off saves its AsyncLocalStorage cost (measured ~10-20 µs per query on Node 20 and 22).
   */
  transactionGuard?: boolean;
  /**
   * The embedded database's thread ended while the database was open (PGlite aborted): every later query fails.
   * main.ts stops the service; without it the failure shows only in the queries.
   */
  onEmbeddedThreadExit?: (reason: string) => void;
}

/** The pool as the options want it: guarded against queries from inside its own transactions, or as is. */
const pool = (sql: postgres.Sql, options: Pick<DatabaseOptions, 'transactionGuard'>): postgres.Sql =>
  options.transactionGuard === false ? sql : guardPool(sql);

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;
// The watchdog waits a little longer than the server's statement_timeout, so a statement that is merely
// slow ends with the server's own error and its connection stays.
const watchdogMs = (queryTimeoutMs: number): number => queryTimeoutMs + Math.max(500, queryTimeoutMs / 10);

// PGlite has a single backend. The socket server shares it between connections by queueing
// protocol messages one at a time, so the unnamed statement and portal of the extended protocol
// are shared too: two connections stay apart only while each one's Parse/Bind/Execute arrive in
// one socket read. One connection removes that risk; postgres.js still pipelines queries and
// holds them back while a transaction runs, which the multiplexer would do anyway.
const EMBEDDED_POOL_SIZE = 1;
// Room for the pool plus the dedicated connections postgres.js opens for `listen` and `reserve`.
const EMBEDDED_SOCKET_CONNECTIONS = 8;

const ignoreNotice = (): void => {};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  if (!options.dataDir && !options.memory) {
    throw new Error('openDatabase needs databaseUrl, dataDir or memory: true');
  }
  return openEmbedded(options);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const connectMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const queryMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const sql = pool(
    postgres(url, {
      max: options.poolSize ?? 10,
      onnotice: ignoreNotice,
      // postgres.js counts whole seconds; the timer covers TCP, authentication and the first ReadyForQuery.
      connect_timeout: Math.max(1, Math.ceil(connectMs / 1000)),
      connection: { ...connectionParameters(options), statement_timeout: queryMs },
      // A documented option of postgres.js that its types leave out.
      ...({
        socket: (target: SocketTarget) =>
          noDelaySocket(target).then((socket) => watchReplies(socket, watchdogMs(queryMs)), failedSocket),
      } as object),
    }),
    options,
  );
  await checkReachable(sql);
  // The job library's `pg` pool: the same bounds, and its sockets watched the same way.
  const pgOptions = {
    connectionTimeoutMillis: connectMs,
    statement_timeout: queryMs,
    keepAlive: true,
    stream: () => watchReplies(new Socket(), watchdogMs(queryMs)),
  };
  return { sql, kind: 'postgres', connectionString: url, pgOptions, close: () => sql.end() };
}

async function openEmbedded(options: DatabaseOptions): Promise<Database> {
  if (options.memory) return servePglite(await PGlite.create(), options);
  const dataDir = resolve(options.dataDir as string);
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  try {
    const db = await serveOnThread(dataDir, options);
    const close = async (): Promise<void> => {
      try {
        await db.close();
      } finally {
        await unlock();
      }
    };
    return { ...db, close };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** What src/db/embedded-thread.js is given. */
interface EmbeddedThreadData {
  dataDir: string;
  /** A dump of a fresh data folder to unpack instead of running initdb; given only for a new folder. */
  template?: string;
  /** The unix socket to serve on, inside a private folder. */
  socketPath: string;
  maxConnections: number;
  /** Schema list set as the one session's `search_path`. */
  searchPath?: string;
}

/** What the thread says: `ready` or `failed` once, later `closed` after the close request. */
type EmbeddedThreadEvent = { kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'closed' };

// Beside this module in src/ (the build rewrites import.meta.url to name the source file, so the bundle finds it too).
const EMBEDDED_THREAD = fileURLToPath(new URL('./embedded-thread.js', import.meta.url));

/** The thread's first word: ready, or why it could not open the folder (or that it died trying). */
const threadStarted = (thread: Worker): Promise<EmbeddedThreadEvent> =>
  new Promise((settle) => {
    thread.once('message', settle);
    thread.once('error', (error) => settle({ kind: 'failed', message: error.message }));
    thread.once('exit', (code) => settle({ kind: 'failed', message: `its thread exited with code ${code}` }));
  });

/**
 * Opens the data folder with PGlite on a thread of its own (src/db/embedded-thread.ts), served on a unix socket to
 * the same postgres.js pool as servePglite's.
 */
async function serveOnThread(dataDir: string, options: DatabaseOptions): Promise<Database> {
  const socketDir = await mkdtemp(join(tmpdir(), 'pglite-'));
  const socketPath = join(socketDir, '.s.PGSQL.5432');
  const template = options.initdbTemplate;
  const workerData: EmbeddedThreadData = {
    dataDir,
    template: template && embeddedFolderIsNew(dataDir) && existsSync(template) ? template : undefined,
    socketPath,
    maxConnections: EMBEDDED_SOCKET_CONNECTIONS,
    searchPath: options.searchPath,
  };
  // None of the process's own flags: they are for its entry (--input-type, a TypeScript loader), not this thread.
  const thread = new Worker(EMBEDDED_THREAD, { workerData, execArgv: [] });
  const exited = new Promise<void>((settle) => thread.once('exit', () => settle()));
  const started = await threadStarted(thread);
  if (started.kind !== 'ready') {
    await thread.terminate();
    await rm(socketDir, { recursive: true, force: true });
    const reason = started.kind === 'failed' ? started.message : started.kind;
    throw new Error(`could not open the embedded database at ${dataDir}: ${reason}`);
  }
  let closing = false;
  thread.once('exit', (code) => {
    if (!closing) options.onEmbeddedThreadExit?.(`the embedded database's thread exited with code ${code}`);
  });
  const sql = embeddedPool(socketPath, options);
  const close = async (): Promise<void> => {
    closing = true;
    try {
      await sql.end();
      thread.postMessage('close');
      await exited;
    } finally {
      await rm(socketDir, { recursive: true, force: true });
    }
  };
  try {
    await checkReachable(sql);
  } catch (error) {
    await close();
    throw error;
  }
  return { sql, kind: 'pglite', connectionString: socketConnectionString(socketDir), close };
}

/** Whether the folder holds no embedded database yet (a first start creates one). */
export const embeddedFolderIsNew = (dataDir: string): boolean => !existsSync(join(dataDir, 'PG_VERSION'));

/**
 * Serves an already created PGlite through postgres.js; `close()` also closes the PGlite.
 * Tests use it to start each database from a migrated template instead of running initdb.
 */
export async function servePglite(
  pglite: PGlite,
  options: Pick<DatabaseOptions, 'searchPath' | 'transactionGuard'> = {},
): Promise<Database> {
  // PGlite ignores startup parameters, and its single session is shared by every socket
  // connection, so a session-level SET applies to all of them.
  if (options.searchPath) await pglite.exec(`set search_path to ${options.searchPath}`);
  // A unix socket inside a fresh 0700 folder: the server has no authentication, so unlike a
  // TCP port it must not be reachable by other users; it also cannot collide with a used port.
  const socketDir = await mkdtemp(join(tmpdir(), 'pglite-'));
  const path = join(socketDir, '.s.PGSQL.5432');
  const server = new PGLiteSocketServer({
    db: pglite,
    path,
    maxConnections: EMBEDDED_SOCKET_CONNECTIONS,
  });
  const sql = embeddedPool(path, options);
  const close = async (): Promise<void> => {
    await sql.end();
    await server.stop();
    await pglite.close();
    await rm(socketDir, { recursive: true, force: true });
  };
  try {
    await server.start();
    await checkReachable(sql);
  } catch (error) {
    await close();
    throw error;
  }
  return { sql, kind: 'pglite', connectionString: socketConnectionString(socketDir), close };
}

/** The postgres.js pool on an embedded database's socket. */
const embeddedPool = (path: string, options: Pick<DatabaseOptions, 'transactionGuard'>): postgres.Sql =>
  pool(
    postgres({
      path,
      user: 'postgres',
      database: 'postgres',
      max: EMBEDDED_POOL_SIZE,
      onnotice: ignoreNotice,
    }),
    options,
  );

// libpq-style `host=<folder>`: `pg` then connects to <folder>/.s.PGSQL.5432, the embedded database's socket.
const socketConnectionString = (socketDir: string): string =>
  `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;

function connectionParameters(options: DatabaseOptions): Record<string, string> {
  return options.searchPath ? { search_path: options.searchPath } : {};
}

// postgres.js connects lazily; a wrong URL or a dead server should fail here, at startup.
async function checkReachable(sql: postgres.Sql): Promise<void> {
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  }
}
