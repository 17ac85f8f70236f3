// The embedded database on a thread of its own (a worker_threads Worker that src/db/pglite-thread.ts starts): PGlite
// and its socket server, which the service reaches over the unix socket as before. PGlite runs PostgreSQL in
// WebAssembly on the thread that calls it: on the service's own thread, opening a data folder (about 0.3 s of CPU)
// took turns with loading the service's modules (about 0.4 s), and every statement held up the requests around it.
// Here the two run at once on two cores.
import { existsSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { setEmbeddedSharedBuffers } from './embedded-settings.ts';
import { withExchangeAffinity } from './pglite-exchange-affinity.ts';
import { embeddedFolderIsNew, unpackTemplate } from './template-unpack.ts';

export interface PgliteHostOptions {
  /** The data folder, locked by the thread that starts this one. */
  dataDir: string;
  /** The dump a new folder is unpacked from (DatabaseOptions.folderTemplate). */
  folderTemplate?: string;
  /** The buffer cache in MB (DatabaseOptions.embeddedSharedBuffersMb). */
  cacheMb?: number;
  /** The unix socket to serve, inside a folder only this user can enter. */
  socketPath: string;
  maxConnections: number;
  searchPath?: string;
}

/** What the host tells the thread that started it. */
export type PgliteHostMessage = { type: 'serving' } | { type: 'closed' };
/** What it is told: to stop serving and close the database (a checkpoint), then to end. */
export type PgliteHostCommand = { type: 'close' };

// PGlite's WebAssembly is compiled at once: the thread that starts this one set the flag (pglite-thread.ts
// compileWebAssemblyAtOnce).
/**
 * Opens the folder with the buffer cache asked for, written to the folder's settings before it opens. A new folder
 * is unpacked from the template first (src/db/template-unpack.ts); one that initdb makes (no template: run from the
 * sources) has PostgreSQL's default cache, so it is opened again with the size asked for, once, on a first start
 * that takes seconds anyway.
 */
async function open({ dataDir, folderTemplate: template, cacheMb }: PgliteHostOptions): Promise<PGlite> {
  if (template && embeddedFolderIsNew(dataDir) && existsSync(template)) unpackTemplate(readFileSync(template), dataDir);
  const initdbRuns = embeddedFolderIsNew(dataDir);
  if (cacheMb && !initdbRuns) await setEmbeddedSharedBuffers(dataDir, cacheMb);
  const pglite = await PGlite.create(dataDir);
  if (!cacheMb || !initdbRuns || !(await setEmbeddedSharedBuffers(dataDir, cacheMb))) return pglite;
  await pglite.close();
  return PGlite.create(dataDir);
}

async function serve(options: PgliteHostOptions): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('src/db/pglite-host.ts runs as a worker thread');
  const pglite = await open(options);
  // PGlite ignores start-up parameters, and its one session is every socket connection's.
  if (options.searchPath) await pglite.exec(`set search_path to ${options.searchPath}`);
  const server = new PGLiteSocketServer({
    db: withExchangeAffinity(pglite),
    path: options.socketPath,
    maxConnections: options.maxConnections,
  });
  await server.start();
  port.on('message', (command: PgliteHostCommand) => {
    if (command.type !== 'close') return;
    void (async () => {
      await server.stop();
      await pglite.close();
      port.postMessage({ type: 'closed' } satisfies PgliteHostMessage);
      port.close();
    })();
  });
  port.postMessage({ type: 'serving' } satisfies PgliteHostMessage);
}

await serve(workerData as PgliteHostOptions);
