// Graceful stop on SIGTERM and SIGINT: stop accepting connections, let in-flight requests finish,
// then close the services and the database (PGlite's lock file goes with it) and exit. Bounded:
// after timeoutMs the connections still open are cut, after twice that the process exits whatever
// still hangs, and the exit code says so.
import type { Server } from 'node:http';
import type { Logger } from 'pino';

export interface ShutdownOptions {
  server: Server;
  log: Logger;
  timeoutMs: number;
  /** Called at the signal, while requests drain: starts stopping work that runs beside them (the job worker). */
  onSignal?(): void;
  /** Closes what the server used (services, then the database); runs once no request is left. */
  close(): Promise<void>;
  /** process.exit in main.ts; the process must end even if a library left a handle open. */
  exit(code: number): void;
}

export function handleShutdownSignals(options: ShutdownOptions): void {
  const { server, log } = options;
  let stopping = false;
  let openRequests = 0;
  server.on('request', (_req, res) => {
    openRequests += 1;
    res.once('close', () => {
      openRequests -= 1;
      // A keep-alive connection goes idle after its response; while stopping nothing reuses it.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });

  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    options.onSignal?.();
    // Stops listening at once, and calls back when the last connection has ended.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    log.info({ signal, open_requests: openRequests, timeout_ms: options.timeoutMs }, 'shutting down');
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      log.warn({ open_requests: openRequests }, 'shutdown timed out');
      server.closeAllConnections();
    }, options.timeoutMs);
    // Last resort for whatever still hangs (a database that no longer answers sql.end(), say): the
    // process ends anyway, and a stale lock file is recognised as such at the next start.
    setTimeout(() => {
      log.error('shutdown did not finish; exiting');
      options.exit(1);
    }, 2 * options.timeoutMs);
    await drained;
    clearTimeout(deadline);
    const code = timedOut ? 1 : 0;
    try {
      await options.close();
      log.info({ exit_code: code }, 'stopped');
      options.exit(code);
    } catch (error) {
      log.error({ err: error }, 'closing the database failed');
      options.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
