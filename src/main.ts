// The only file that reads process.env: configuration -> database -> migrations -> deps -> serve.
// Run it with `node --import tsx src/main.ts` (what `npm start` does): one process, so a signal
// to it reaches the shutdown handler (src/shutdown.ts).
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { anyUserExists } from './data/users.ts';
import { createLogger, createServices } from './services.ts';
import { handleShutdownSignals } from './shutdown.ts';

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
try {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...config.database });
  const applied = await migrate(db.sql, { log });
  const services = await createServices({ db, config, log });
  await services.startJobs({ work: config.jobs.inProcess });
  const app = createApp(services.deps);
  const signupUrl = (await anyUserExists(db.sql)) ? undefined : `${config.publicBaseUrl.replace(/\/$/, '')}/admin/signup`;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info({ port: info.port, host: config.host, database: db.kind, migrations_applied: applied.length }, `listening on http://${config.host}:${info.port}`);
    // A fresh install has no account to sign in with, and no API key for an agent until there is one.
    if (signupUrl) log.info({ signup_url: signupUrl }, `No accounts yet: create the first one at ${signupUrl} (or POST /api/v1/users/signup).`);
  }) as Server;
  handleShutdownSignals({
    server,
    log,
    timeoutMs: config.shutdownTimeoutMs,
    // Running jobs get the same time to finish as requests, at the same time.
    onSignal: () => void services.stopJobs(config.shutdownTimeoutMs),
    async close() {
      await services.stopJobs(config.shutdownTimeoutMs);
      await services.close();
      await db.close();
    },
    exit: (code) => process.exit(code),
  });
} catch (error) {
  // Start-up failures (data folder in use, database unreachable) stay JSON lines like the rest of the log.
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
