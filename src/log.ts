// The service's logger (JSON lines through pino), and the warnings a start-up owes its operator. Kept apart
// from services.ts so that an entry can log before it loads the rest of the service.
import pino, { type Logger } from 'pino';
import type { AppConfig } from './config.ts';
import { embeddedFolderIsNew } from './db/template-unpack.ts';

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'service-mcp' },
    // Belt and braces: nothing logs these fields, and if something ever does they are masked.
    redact: {
      paths: ['authorization', '*.authorization', 'password', '*.password', 'key', 'token', '*.token', 'access_token'],
      censor: '[redacted]',
    },
  });
}

/**
 * The configuration `load` reads, or, when a setting is invalid, one fatal JSON line naming it and exit 1: a bad
 * setting stops the start before anything opens, said like every other start-up failure.
 */
export function configOrExit(load: () => AppConfig): AppConfig {
  try {
    return load();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    createLogger('info').fatal({ err: error }, `invalid configuration: ${message}`);
    process.exit(1);
  }
}

/** Settings that are right for local use and tests but dangerous in production say so at every start. */
export function warnAboutUnsafeSettings(log: Logger, config: AppConfig): void {
  if (config.outbound.allowPrivate) {
    log.warn(
      { setting: 'OUTBOUND_ALLOW_PRIVATE' },
      'OUTBOUND_ALLOW_PRIVATE=true: fetches of user-given URLs may reach loopback and private networks (local use and tests only, never in production)',
    );
  }
}

/** Where the database is, for the log: the embedded folder, or the server's host and database without credentials. */
export function describeDatabase(config: AppConfig): string {
  if (!config.databaseUrl) return `embedded database at ${config.dataDir}`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/**
 * The line said before the database is opened. A first start on a new data folder says it is creating it, which
 * takes seconds (the embedded database's initdb), so the wait that follows is not taken for a hang. `newFolder`: as
 * the folder was before its database began to open (src/main.ts starts that first).
 */
export function openingDatabaseLine(config: AppConfig, newFolder = embeddedFolderIsNew(config.dataDir)): string {
  if (!config.databaseUrl && newFolder)
    return `creating embedded database at ${config.dataDir} (a first start on this folder)`;
  return `opening ${describeDatabase(config)}`;
}
