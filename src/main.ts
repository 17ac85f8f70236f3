// The only file that reads process.env: configuration -> database -> migrations -> deps -> serve.
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { createLogger, createServices } from './services.ts';

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const applied = await migrate(db.sql, { log });
const services = await createServices({ db, config, log });
const app = createApp(services.deps);

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  log.info({ port: info.port, host: config.host, database: db.kind, migrations_applied: applied.length }, `listening on http://${config.host}:${info.port}`);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  server.close();
  await services.close();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
