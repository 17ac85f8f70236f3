// Opens the database: PostgreSQL from a URL, or embedded PGlite served over a private unix
// socket so that both are reached through the same postgres.js client.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { failedSocket, noDelaySocket, type SocketTarget } from './postgres-sockets.ts';
import { guardPool } from './transaction-guard.ts';
import { withExchangeAffinity } from './pglite-exchange-affinity.ts';
import {
  compileWebAssemblyAtOnce,
  EMBEDDED_SOCKET_CONNECTIONS,
  embeddedStartOptions,
  socketFolder,
  startEmbeddedDatabase,
  type EmbeddedStart,
  type SocketFolder,
} from './pglite-thread.ts';
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
  /**
   * An embedded data folder's database runs on a thread of its own (src/db/pglite-host.ts): this settles only if
   * that thread ends by itself, and then every query fails, so the process should end saying so.
   */
  lost?: Promise<Error>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Folder holding the embedded database's files; created when missing. */
  dataDir?: string;
  /**
   * A new embedded data folder (or in-memory database) is made from this dump of a new one (scripts/build.ts writes
   * it) instead of running initdb, which takes seconds; ignored for an existing folder, or when the file is missing.
   */
  folderTemplate?: string;
  /**
   * The embedded database's buffer cache in MB (EMBEDDED_SHARED_BUFFERS_MB), written to the data folder's settings
   * before it opens (src/db/embedded-settings.ts).
   */
  embeddedSharedBuffersMb?: number;
  /** Keep the embedded database in memory only (tests). */
  memory?: boolean;
  /**
   * The data folder's database already begun (src/db/pglite-thread.ts startEmbeddedDatabase, with
   * embeddedStartOptions of these options): src/main.ts starts it before anything else loads.
   */
  embeddedStart?: EmbeddedStart;
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
// are shared too; withExchangeAffinity holds the backend for a connection from its Parse to its Sync.
// One connection for the pool still: postgres.js pipelines queries and holds them back while a
// transaction runs, which the multiplexer would do anyway.
const EMBEDDED_POOL_SIZE = 1;

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
  if (options.memory) {
    compileWebAssemblyAtOnce();
    const { PGlite } = await import('@electric-sql/pglite');
    return servePglite(await PGlite.create(await memoryOptions(options.folderTemplate)), options);
  }
  const started = options.embeddedStart ?? startEmbeddedDatabase(embeddedStartOptions(options));
  const { socket, thread, unlock } = started;
  try {
    const db = await connectEmbedded(socket, options, () => thread.close(), thread.serving);
    const close = async (): Promise<void> => {
      try {
        await db.close();
      } finally {
        await unlock();
      }
    };
    return { ...db, close, lost: thread.lost };
  } catch (error) {
    await thread.close();
    await socket.remove();
    await unlock();
    throw error;
  }
}

/** An in-memory database (tests) starts from the template too, through PGlite's own loading, when there is one. */
async function memoryOptions(template: string | undefined): Promise<{ loadDataDir?: Blob }> {
  return template && existsSync(template) ? { loadDataDir: new Blob([new Uint8Array(await readFile(template))]) } : {};
}

/**
 * Serves an already created PGlite through postgres.js; `close()` also closes the PGlite unless `keepPglite` says
 * its owner goes on using it. Tests use it to start each database from a migrated template instead of running
 * initdb, and to serve one PGlite again after emptying it.
 */
export async function servePglite(
  pglite: PGlite,
  options: Pick<DatabaseOptions, 'searchPath' | 'transactionGuard'> & { keepPglite?: boolean } = {},
): Promise<Database> {
  // PGlite ignores startup parameters, and its single session is shared by every socket
  // connection, so a session-level SET applies to all of them.
  if (options.searchPath) await pglite.exec(`set search_path to ${options.searchPath}`);
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const socket = socketFolder();
  const server = new PGLiteSocketServer({
    db: withExchangeAffinity(pglite),
    path: socket.path,
    maxConnections: EMBEDDED_SOCKET_CONNECTIONS,
  });
  const stop = async (): Promise<void> => {
    await server.stop();
    if (!options.keepPglite) await pglite.close();
  };
  try {
    await server.start();
  } catch (error) {
    await stop();
    await socket.remove();
    throw error;
  }
  return connectEmbedded(socket, options, stop);
}

/**
 * The pool on an embedded database's socket, once its server is `serving`; closing it stops the server
 * (`stopServer`) and removes the socket.
 */
async function connectEmbedded(
  socket: SocketFolder,
  options: Pick<DatabaseOptions, 'transactionGuard'>,
  stopServer: () => Promise<void>,
  serving?: Promise<void>,
): Promise<Database> {
  const sql = pool(
    postgres({
      path: socket.path,
      user: 'postgres',
      database: 'postgres',
      max: EMBEDDED_POOL_SIZE,
      onnotice: ignoreNotice,
    }),
    options,
  );
  const close = async (): Promise<void> => {
    try {
      await sql.end();
      await stopServer();
    } finally {
      await socket.remove();
    }
  };
  try {
    await serving;
    await checkReachable(sql);
  } catch (error) {
    await close();
    throw error;
  }
  // libpq-style `host=<folder>`: `pg` then connects to <folder>/.s.PGSQL.5432, the socket above.
  const connectionString = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socket.dir)}`;
  return { sql, kind: 'pglite', connectionString, close };
}

function connectionParameters(options: DatabaseOptions): Record<string, string> {
  return options.searchPath ? { search_path: options.searchPath } : {};
}

// postgres.js connects lazily; a wrong URL or a dead server should fail here, at startup.
async function checkReachable(sql: postgres.Sql): Promise<void> {
  try {
    await sql`select 1`;
    readArrayTypesOnce(sql);
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  }
}

/**
 * After a pool's first query: no later connection of the pool reads the server's array types again.
 *
 * postgres.js (3.4.9, `fetch_types`, on by default) reads them with a query of its own on every new connection and
 * drops that query's promise, so a connection cut while the query runs (a restart, a failover, a statement_timeout)
 * rejects with no handler, which ends a Node process (porsager/postgres#1192, #1205, #1223: open). The types are the
 * same for every connection, and the parsers they make are kept in the pool's shared options, so the connection of
 * the first query, at start-up, reads them, and the pool then stops asking. Throws when that first connection did
 * not read them (arrays would come back as text).
 */
export function readArrayTypesOnce(sql: postgres.Sql): void {
  const options = sql.options as postgres.Sql['options'] & { shared: { typeArrayMap: Record<number, number> } };
  if (!options.fetch_types) return;
  if (Object.keys(options.shared.typeArrayMap).length === 0)
    throw new Error('the database connection did not read the array types of the server');
  (options as { fetch_types: boolean }).fetch_types = false;
}
