// Starts the embedded database's thread (src/db/pglite-host.ts) and waits until it serves its socket. From the
// build it runs the host's bundle (scripts/build.ts defines __PGLITE_HOST__, its path in the repository); from the
// sources (tsx, vitest, the tests' bundled processes) it runs the .ts file through tsx's loader, registered in the
// thread itself: Node 20 does not carry a parent's `--import tsx` into a worker's module loader.
import { Worker } from 'node:worker_threads';
import type { PgliteHostCommand, PgliteHostMessage, PgliteHostOptions } from './pglite-host.ts';

declare const __PGLITE_HOST__: string | undefined;

export interface PgliteThread {
  /** Settles once the database is open and its socket served; rejects with the thread's error when it could not be. */
  serving: Promise<void>;
  /** Stops serving, closes the database (its checkpoint) and ends the thread. */
  close(): Promise<void>;
  /** Settles only if the thread ends by itself (PGlite aborted) after serving: the database is gone. */
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
