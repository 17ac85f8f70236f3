// Second entry: a process that only runs background jobs (`npm run worker`), beside any number of
// service instances on the same PostgreSQL database. Like main.ts, it alone reads process.env.
// SIGTERM/SIGINT: stop taking jobs, let running ones finish within SHUTDOWN_TIMEOUT_MS, exit.
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { configOrExit, createLogger, openingDatabaseLine, warnAboutUnsafeSettings } from './log.ts';
import { createServices } from './services.ts';

const config = configOrExit(() => loadConfig(process.env));
const log = createLogger(config.logLevel);
log.info({ pid: process.pid, node: process.version }, 'worker starting');
warnAboutUnsafeSettings(log, config);
try {
  // The embedded database admits one process: its jobs run inside the service.
  if (!config.databaseUrl)
    throw new Error('npm run worker needs DATABASE_URL; with the embedded database, jobs run inside the service');
  log.info(openingDatabaseLine(config));
  const db = await openDatabase({ databaseUrl: config.databaseUrl, ...config.database });
  await migrate(db.sql, { log });
  const services = await createServices({ db, config, log });
  await services.startJobs({ work: true });
  log.info({ concurrency: config.jobs.concurrency, poll_interval_ms: config.jobs.pollIntervalMs }, 'worker running');
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'worker stopping');
    // Last resort, as in src/shutdown.ts: a database that no longer answers must not keep us alive.
    setTimeout(() => process.exit(1), 2 * config.shutdownTimeoutMs).unref();
    try {
      await services.stopJobs(config.shutdownTimeoutMs);
      await services.close();
      await db.close();
      log.info('worker stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'worker stop failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
} catch (error) {
  log.fatal({ err: error }, 'worker could not start');
  process.exit(1);
}
