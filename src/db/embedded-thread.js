// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) and the socket server that shares
// it with the service's postgres.js pool (src/db/connection.ts starts it). On a thread of its own, its start-up
// (compiling the WebAssembly and starting PostgreSQL on the data folder, about 0.4 s) runs while the service loads
// its modules, and its queries run beside the service's JavaScript instead of taking turns with it.
//
// Plain JavaScript, as scripts/run-built.js is: Node 20 runs no TypeScript loader inside a worker thread, and this
// file is started as it is from src/ and from the build alike (its packages stay outside the bundles).
// workerData and the messages are typed in connection.ts (EmbeddedThreadData, EmbeddedThreadEvent).
import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

if (!parentPort) throw new Error('src/db/embedded-thread.js runs as a worker thread (src/db/connection.ts starts it)');
const port = parentPort;
const data = workerData;
const say = (event) => port.postMessage(event);

// PGlite compiles its WebAssembly (about 9 MB) asynchronously by default: V8 then keeps optimising it on background
// threads, and the first task after PGlite.create waited for that work, 80-130 ms measured here before the socket
// took its first connection. Compiled synchronously, the wait is gone and hot functions are still optimised later.
// The setting is the process's, read when a module is compiled; only PGlite compiles WebAssembly here.
setFlagsFromString('--no-wasm-async-compilation');

try {
  const loadDataDir = data.template ? new Blob([await readFile(data.template)]) : undefined;
  const pglite = await PGlite.create(data.dataDir, loadDataDir ? { loadDataDir } : {});
  // PGlite ignores start-up parameters, and its single session is shared by every socket connection, so a
  // session-level SET applies to all of them.
  if (data.searchPath) await pglite.exec(`set search_path to ${data.searchPath}`);
  const server = new PGLiteSocketServer({ db: pglite, path: data.socketPath, maxConnections: data.maxConnections });
  await server.start();
  // The one request: close. The socket first, so no query starts on a closing database; then PGlite writes its files.
  port.once('message', async () => {
    await server.stop();
    await pglite.close();
    say({ kind: 'closed' });
    port.close();
  });
  say({ kind: 'ready' });
} catch (error) {
  say({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  port.close();
}
