// The only file that reads process.env: configuration -> database -> migrations -> deps -> serve.
// `npm start` runs its build, `node dist/main.js` (scripts/build.ts; `npm run dev` runs this file through tsx):
// one process, so a signal to it reaches the shutdown handler (src/shutdown.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import { loadConfig, type AppConfig } from './config.ts';
import { builtFirstStartTemplate } from './db/built-template.ts';
import { embeddedStartOptions, startEmbeddedDatabase, type EmbeddedStart } from './db/pglite-thread.ts';

// Before anything else loads, the logger among them: the embedded database begins to open on its thread, the
// longest wait of a start (issue 32). What fails here (the configuration, a folder in use) is said once the logger
// is there.
const early = beginEmbeddedDatabase();
const { configOrExit, createLogger, openingDatabaseLine, warnAboutUnsafeSettings } = await import('./log.ts');
const envConfig = configOrExit(() => {
  if ('configError' in early) throw early.configError;
  return early.config;
});
const embedded = 'embedded' in early ? early.embedded : undefined;
const log = createLogger(envConfig.logLevel);
// Said before anything slow: loading the modules, and creating the embedded database on a first start, take
// seconds, and a silent terminal looks like a hung one.
log.info({ pid: process.pid, node: process.version }, 'starting');
warnAboutUnsafeSettings(log, envConfig);
try {
  const [{ openDatabase }, { migrate }, { getRequestListener }] = await Promise.all([
    import('./db/connection.ts'),
    import('./db/migrate.ts'),
    import('@hono/node-server'),
  ]);
  if (embedded && 'error' in embedded) throw embedded.error;
  log.info(openingDatabaseLine(envConfig, embedded?.newFolder));
  // The database opens and migrates while the rest of the service loads: the embedded one on a thread of its own
  // (src/db/pglite-host.ts), PostgreSQL's connection over the network. Where it is does not depend on the port.
  // The embedded database was begun above with its folder, template and cache (beginEmbeddedDatabase).
  const migrated = openDatabase({
    databaseUrl: envConfig.databaseUrl,
    dataDir: envConfig.dataDir,
    ...envConfig.database,
    embeddedStart: embedded,
  }).then(async (db) => ({ db, applied: await migrate(db.sql, { log }) }));
  // Awaited below, after the port is bound: a failure that comes first (the folder in use) is handled there.
  migrated.catch(() => undefined);
  // The app answers once it is made; a request that comes before (only possible when PORT=0 binds early) gets 503.
  let app: App | undefined;
  const server = createServer(
    getRequestListener((request, env) => (app ? app.fetch(request, env) : new Response(null, { status: 503 })), {
      hostname: envConfig.host,
    }),
  );
  // PORT=0 lets the system choose the port, and the addresses the service hands out name it (PUBLIC_BASE_URL's
  // default, in OAuth redirects and links; the sandbox providers' own address): so the port is bound first and
  // the configuration read again with it. Any other port is bound once the service is ready, as before.
  const config =
    envConfig.port === 0
      ? loadConfig({ ...process.env, PORT: String(await listen(server, 0, envConfig.host)) })
      : envConfig;
  const [{ db, applied }, { createApp }, { anyUserExists }, { createServices }, { handleShutdownSignals }] =
    await Promise.all([
      migrated,
      import('./app.ts'),
      import('./handlers/users/users-data.ts'),
      import('./services.ts'),
      import('./shutdown.ts'),
    ]);
  // The embedded database runs on a thread of its own; if that thread ends, nothing the service does can succeed.
  void db.lost?.then((error) => {
    log.fatal({ err: error }, 'the embedded database stopped');
    process.exit(1);
  });
  log.info('starting services and background jobs');
  const services = await createServices({ db, config, log });
  // The job queue's start-up is mostly the database's work: the app is put together meanwhile.
  // Its failure is held as a value from here on: it may come while the rest starts, before anything awaits it.
  const jobsFailure = services.startJobs({ work: config.jobs.inProcess }).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  const ready = createApp(services.deps);
  const [userExists, queuesExist] = await Promise.all([anyUserExists(db.sql), services.jobQueuesExist()]);
  // Where every queue is stored already (an existing data folder or database, or the build's template) the service
  // answers while the job queue finishes starting (pg-boss's start, about a tenth of a second to a third on PGlite):
  // a request's job is inserted in its own transaction, into a queue that exists. A new database waits for it.
  const failed = queuesExist ? undefined : await jobsFailure;
  if (failed) throw failed.error;
  const signupUrl = userExists ? undefined : `${config.publicBaseUrl.replace(/\/$/, '')}/admin/signup`;
  const announce = () => {
    const port = (server.address() as AddressInfo).port;
    log.info(
      { port, host: config.host, database: db.kind, migrations_applied: applied.length },
      `listening on http://${config.host}:${port}`,
    );
    // A fresh install has no account to sign in with, and no API key for an agent until there is one.
    if (signupUrl)
      log.info(
        { signup_url: signupUrl },
        `No accounts yet: create the first one at ${signupUrl} (or POST /api/v1/users/signup).`,
      );
  };
  const closeAll = async (): Promise<void> => {
    await services.stopJobs(config.shutdownTimeoutMs);
    await services.close();
    await db.close();
  };
  // A job queue that fails to start fails the start, as any other cause, also when the service answers already.
  void jobsFailure.then((failure) => {
    if (!failure) return;
    log.fatal({ err: failure.error }, 'could not start');
    void closeAll().finally(() => process.exit(1));
  });
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
  // Behind a load balancer that keeps connections to the instances, an instance must not close an idle one first:
  // the balancer could send a request on it as it closes (docs/scaling.md). headersTimeout (60 s by default) is
  // kept above it, the usual pairing.
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = Math.max(server.headersTimeout, config.keepAliveTimeoutMs + 1_000);
  app = ready;
  if (server.listening) announce();
  else server.listen(config.port, config.host, announce);
} catch (error) {
  // Start-up failures (data folder in use, database unreachable) stay JSON lines like the rest of the log.
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}

type Early = { configError: unknown } | { config: AppConfig; embedded?: EmbeddedStart | { error: unknown } };

function beginEmbeddedDatabase(): Early {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (configError) {
    return { configError };
  }
  if (config.databaseUrl) return { config };
  try {
    const options = { dataDir: config.dataDir, folderTemplate: builtFirstStartTemplate(), ...config.database };
    return { config, embedded: startEmbeddedDatabase(embeddedStartOptions(options)) };
  } catch (error) {
    return { config, embedded: { error } };
  }
}

/** Binds `server` and resolves with its port; a failure to bind (an address not of this machine) rejects. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
