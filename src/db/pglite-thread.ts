// Begins a data folder's embedded database: locks the folder and starts the database's thread
// (src/db/pglite-host.ts), which opens it and serves its unix socket. From the build the thread runs the host's
// bundle (scripts/build.ts defines __PGLITE_HOST__, its path in the repository); from the sources (tsx, vitest, the
// tests' bundled processes) it runs the .ts file through tsx's loader, registered in the thread itself: Node 20
// does not carry a parent's `--import tsx` into a worker's module loader.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.ts';
import type { PgliteHostCommand, PgliteHostMessage, PgliteHostOptions } from './pglite-host.ts';
import { embeddedFolderIsNew } from './template-unpack.ts';

declare const __PGLITE_HOST__: string | undefined;

// PGlite compiles its WebAssembly (about 9 MB) asynchronously by default: V8 then keeps optimising it on background
// threads, and the first task after PGlite.create waited for that work, 80-130 ms measured here, before anything
// else ran (the first connection, the migrations). Compiled synchronously, the wait is gone and hot functions are
// still optimised later. The setting is the process's (every thread's), read when a module is compiled; only PGlite
// compiles WebAssembly here. It is set on the service's thread before the database's thread starts, never from that
// thread: V8's code caches carry a hash of the flags, and a flag changed at a racing moment made Node 22's compile
// cache of the service's bundles compiled after it differ from start to start, so they were refused.
export const compileWebAssemblyAtOnce = (): void => setFlagsFromString('--no-wasm-async-compilation');

export interface PgliteThread {
  /** Settles once the database is open and its socket served; rejects with the thread's error when it could not be. */
  serving: Promise<void>;
  /** Stops serving, closes the database (its checkpoint) and ends the thread. */
  close(): Promise<void>;
  /**
   * Settles when the thread ends by itself (it could not open the folder, or PGlite aborted later); once the
   * database has opened, that means it is gone.
   */
  lost: Promise<Error>;
}

function startWorker(options: PgliteHostOptions): Worker {
  if (typeof __PGLITE_HOST__ === 'string')
    return new Worker(new URL(`../../${__PGLITE_HOST__}`, import.meta.url), { workerData: options });
  const host = new URL('./pglite-host.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const run = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(host)}, ${JSON.stringify(host)}))`;
  return new Worker(run, { eval: true, workerData: options });
}

const ended = (code: number): Error => new Error(`the embedded database's thread ended (exit code ${code})`);

/** Starts the thread now (synchronously); its database opens meanwhile. */
export function startPgliteThread(options: PgliteHostOptions): PgliteThread {
  const worker = startWorker(options);
  let closing = false;
  let exited = false;
  let closed: (() => void) | undefined;
  let reportLoss: (error: Error) => void = () => {};
  const lost = new Promise<Error>((resolve) => {
    reportLoss = resolve;
  });
  const serving = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PgliteHostMessage) => {
      if (message.type === 'serving') resolve();
      else if (message.type === 'closed') closed?.();
    });
    worker.on('error', (error) => {
      reject(error);
      if (!closing) reportLoss(error);
    });
    worker.on('exit', (code) => {
      exited = true;
      reject(ended(code));
      if (!closing) reportLoss(ended(code));
      closed?.();
    });
  });
  const close = async (): Promise<void> => {
    if (closing || exited) return;
    closing = true;
    await new Promise<void>((resolve) => {
      closed = resolve;
      worker.postMessage({ type: 'close' } satisfies PgliteHostCommand);
    });
    await worker.terminate();
  };
  return { serving, close, lost };
}

export interface SocketFolder {
  dir: string;
  path: string;
  remove(): Promise<void>;
}

/**
 * A unix socket inside a fresh 0700 folder: the socket server has no authentication, so unlike a TCP port it must
 * not be reachable by other users; it also cannot collide with a used port.
 */
export function socketFolder(): SocketFolder {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
  return { dir, path: join(dir, '.s.PGSQL.5432'), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A data folder's database as it begins to open: locked, its thread started, its socket not yet served. */
export interface EmbeddedStart {
  /** Whether the folder held no database when the thread started: a first start, which creates it. */
  newFolder: boolean;
  socket: SocketFolder;
  thread: PgliteThread;
  unlock(): Promise<void>;
}

export type EmbeddedStartOptions = Omit<PgliteHostOptions, 'socketPath'>;

// Room for the pool plus the dedicated connections postgres.js opens for `listen` and `reserve`.
export const EMBEDDED_SOCKET_CONNECTIONS = 8;

/** The thread's options from the database options' names (DatabaseOptions in connection.ts). */
export function embeddedStartOptions(options: {
  dataDir?: string;
  folderTemplate?: string;
  embeddedSharedBuffersMb?: number;
  searchPath?: string;
}): EmbeddedStartOptions {
  if (!options.dataDir) throw new Error('the embedded database needs a data folder');
  return {
    dataDir: options.dataDir,
    folderTemplate: options.folderTemplate,
    cacheMb: options.embeddedSharedBuffersMb,
    maxConnections: EMBEDDED_SOCKET_CONNECTIONS,
    searchPath: options.searchPath,
  };
}

/**
 * Locks the folder and starts its thread, synchronously, so the database begins to open before anything else
 * loads (src/main.ts calls it first; connection.ts otherwise). Throws when another process holds the folder.
 */
export function startEmbeddedDatabase(options: EmbeddedStartOptions): EmbeddedStart {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const newFolder = embeddedFolderIsNew(dataDir);
  const unlock = lockDataDir(dataDir);
  try {
    compileWebAssemblyAtOnce();
    const socket = socketFolder();
    const thread = startPgliteThread({ ...options, dataDir, socketPath: socket.path });
    return { newFolder, socket, thread, unlock };
  } catch (error) {
    void unlock();
    throw error;
  }
}
