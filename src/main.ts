// The only file that reads process.env: configuration -> database -> migrations -> deps -> serve.
// `npm start` runs its build, `node dist/main.js` (scripts/build.ts; `npm run dev` runs this file through tsx):
// one process, so a signal to it reaches the shutdown handler (src/shutdown.ts).
import type { Server } from 'node:http';
import { loadConfig } from './config.ts';
import { builtInitdbTemplate } from './db/initdb-template.ts';
import { configOrExit, createLogger, openingDatabaseLine, warnAboutUnsafeSettings } from './log.ts';

const config = configOrExit(() => loadConfig(process.env));
const log = createLogger(config.logLevel);
// Said before anything slow: loading the modules, and creating the embedded database on a first start, take
// seconds, and a silent terminal looks like a hung one.
log.info({ pid: process.pid, node: process.version }, 'starting');
warnAboutUnsafeSettings(log, config);
try {
  const [{ openDatabase }, { migrate }] = await Promise.all([import('./db/connection.ts'), import('./db/migrate.ts')]);
  log.info(openingDatabaseLine(config));
  // The database opens and migrates while the rest of the service loads: PGlite's file reads and PostgreSQL's
  // connection overlap the module loading.
  const migrated = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    initdbTemplate: builtInitdbTemplate(),
    ...config.database,
  }).then(async (db) => ({ db, applied: await migrate(db.sql, { log }) }));
  const [{ db, applied }, { serve }, { createApp }, { anyUserExists }, { createServices }, { handleShutdownSignals }] =
    await Promise.all([
      migrated,
      import('@hono/node-server'),
      import('./app.ts'),
      import('./handlers/users/users-data.ts'),
      import('./services.ts'),
      import('./shutdown.ts'),
    ]);
  log.info('starting services and background jobs');
  const services = await createServices({ db, config, log });
  // The job queue's start-up is mostly the database's work: the app is put together meanwhile.
  const jobsStarted = services.startJobs({ work: config.jobs.inProcess });
  const app = createApp(services.deps);
  const [userExists] = await Promise.all([anyUserExists(db.sql), jobsStarted]);
  const signupUrl = userExists ? undefined : `${config.publicBaseUrl.replace(/\/$/, '')}/admin/signup`;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info(
      { port: info.port, host: config.host, database: db.kind, migrations_applied: applied.length },
      `listening on http://${config.host}:${info.port}`,
    );
    // A fresh install has no account to sign in with, and no API key for an agent until there is one.
    if (signupUrl)
      log.info(
        { signup_url: signupUrl },
        `No accounts yet: create the first one at ${signupUrl} (or POST /api/v1/users/signup).`,
      );
  }) as Server;
  const closeAll = async (): Promise<void> => {
    await services.stopJobs(config.shutdownTimeoutMs);
    await services.close();
    await db.close();
  };
  // A port that is taken (or not ours to bind) fails the start like any other cause: one fatal line, the database
  // closed, exit 1, instead of Node's trace of an unhandled 'error' event. Once listening, a server error (an accept
  // that failed) is logged and the service goes on.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (server.listening) {
      log.error({ err: error }, 'the HTTP server reported an error');
      return;
    }
    const where = `${config.host}:${config.port}`;
    log.fatal(
      { err: error },
      error.code === 'EADDRINUSE' ? `could not start: ${where} is already in use (PORT)` : 'could not start',
    );
    void closeAll().finally(() => process.exit(1));
  });
  handleShutdownSignals({
    server,
    log,
    timeoutMs: config.shutdownTimeoutMs,
    // Open long-polls answer now with what they read (the client calls again, elsewhere), so they do not
    // hold the drain up; running jobs get the same time to finish as requests, at the same time.
    onSignal: () => {
      services.deps.resourceWatch.end();
      void services.stopJobs(config.shutdownTimeoutMs);
    },
    close: closeAll,
    exit: (code) => process.exit(code),
  });
} catch (error) {
  // Start-up failures (data folder in use, database unreachable) stay JSON lines like the rest of the log.
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
