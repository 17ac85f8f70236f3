// The composition root: builds the Deps object from an open database and the configuration (secrets,
// JWTs, passwords, the authenticator with its cache, the shared rate limiter, the outbound client, the job
// queue with the service's job kinds registered and started separately by startJobs, and the subscribers
// every recorded event reaches). Used by main.ts, the worker, the CLI and tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import yaml from 'js-yaml';
import { createAuthenticator } from './auth/authenticator.ts';
import { loadOrCreateJwtKey } from './auth/jwt.ts';
import { createJwtService } from './auth/jwt.ts';
import { createLoginThrottle } from './auth/login-throttle.ts';
import { createPasswordHasher, type Argon2Params } from './auth/passwords.ts';
import { createRateLimiter } from './auth/rate-limiter.ts';
import { loadOrCreateSecret } from './auth/server-secrets.ts';
import type { AppConfig } from './config.ts';
import type { Database } from './db/connection.ts';
import type { Deps } from './deps.ts';
import type { Clock } from './clock.ts';
import { createIds } from './ids.ts';
import { createLogger } from './log.ts';
import { createSealer } from './auth/sealer.ts';
import type { JobKind } from './jobs/job-kind.ts';
import { createJobs } from './jobs/jobs.ts';
import { scheduleServiceJobs, serviceJobs } from './service-jobs.ts';
import { resumeRunsWaitingOn } from './handlers/agents/resume.ts';
import { createOperationWatch } from './handlers/operations/operation-watch.ts';
import { fanOutEvent } from './handlers/webhooks/deliver.ts';
import { createOutboundClient } from './outbound/outbound-client.ts';
import { gmailEndpoints, sandboxClientSecret } from './handlers/connectors/google/google-endpoints.ts';
import { metaEndpoints } from './handlers/connectors/meta/graph-client.ts';
import { createTokenKeyring, loadTokenKeys } from './handlers/connectors/token-keys.ts';

export interface ServiceOptions {
  db: Database;
  config: AppConfig;
  log?: Logger;
  clock?: Clock;
  /** Only tests pass lighter parameters, to keep the suite quick; production uses OWASP's. */
  argon2Params?: Argon2Params;
  /** pg-boss's schema (default `pgboss`); tests give each database its own. */
  jobsSchema?: string;
  /** Job kinds registered beside the service's own (a test's operation kinds). */
  extraJobKinds?: JobKind<unknown, Deps>[];
}

export interface Services {
  deps: Deps;
  /** Starts the job queue (creating its schema); with `work`, this process also runs jobs. */
  startJobs(options: { work: boolean }): Promise<void>;
  /** Whether every job kind's queue is stored already, so requests may come before startJobs has finished. */
  jobQueuesExist(): Promise<boolean>;
  /** Stops taking jobs and lets running ones finish for up to `timeoutMs`; close() calls it too. */
  stopJobs(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const contractPath = new URL('../openapi/openapi.yaml', import.meta.url);

function contractDeps(): Deps['contract'] {
  let document: Record<string, unknown> | undefined;
  const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
  return {
    openapiDocument: () => (document ??= yaml.load(readFileSync(contractPath, 'utf8')) as Record<string, unknown>),
    version,
  };
}

export async function createServices(options: ServiceOptions): Promise<Services> {
  const { db, config } = options;
  const { sql } = db;
  const clock = options.clock ?? { now: () => new Date() };
  const log = options.log ?? createLogger(config.logLevel);
  const jwtKey = await loadOrCreateJwtKey(sql, config.jwt.secret);
  const apiKeyPepper = await loadOrCreateSecret(sql, 'api_key_pepper', config.apiKeyPepper);
  const jwt = createJwtService({
    keys: [jwtKey],
    activeKid: jwtKey.kid,
    issuer: config.jwt.issuer,
    audience: config.jwt.audience,
    ttlSeconds: config.jwt.ttlSeconds,
    clock,
  });
  // The embedded database serves one instance, and its socket bridge does not carry NOTIFY.
  const authenticator = createAuthenticator({
    sql,
    jwt,
    pepper: apiKeyPepper,
    clock,
    log,
    invalidation: db.kind === 'pglite' ? 'local' : 'notify',
  });
  const limiter = createRateLimiter({
    sql,
    clock,
    syncIntervalMs: config.rateLimit.syncIntervalMs,
    windowSeconds: config.rateLimit.windowSeconds,
    log,
  });
  const jobs = createJobs<Deps>({
    connectionString: db.connectionString,
    pgOptions: db.pgOptions,
    sql,
    log,
    schema: options.jobsSchema,
    // pg's extended protocol uses the unnamed statement; two pg connections on PGlite's one backend could
    // interleave theirs (the socket server multiplexes message by message), so the embedded queue gets one.
    poolSize: db.kind === 'pglite' ? 1 : undefined,
    sharedDatabase: db.kind === 'postgres',
    leaseSeconds: config.jobs.leaseSeconds,
    worker: { concurrency: config.jobs.concurrency, pollIntervalMs: config.jobs.pollIntervalMs },
  });
  const deps: Deps = {
    db: { sql, kind: db.kind },
    clock,
    ids: createIds(clock),
    log,
    config,
    auth: {
      authenticator,
      jwt,
      passwords: createPasswordHasher({ params: options.argon2Params }),
      loginThrottle: createLoginThrottle({ sql, clock }),
      limiter,
      apiKeyPepper,
    },
    contract: contractDeps(),
    jobs,
    // In this order, in the transaction that records the event.
    eventSubscribers: [fanOutEvent, resumeRunsWaitingOn],
    outbound: createOutboundClient({
      userAgent: config.outbound.userAgent,
      allowPrivate: config.outbound.allowPrivate,
    }),
    resourceWatch: createOperationWatch({ sql, kind: db.kind, log }),
    sealing: { webhookSecrets: createSealer(apiKeyPepper, 'service-mcp webhook signing secret v1') },
    connectors: {
      gmail: gmailEndpoints(config.google, {
        publicBaseUrl: config.publicBaseUrl,
        internalUrl: config.sandboxInternalUrl,
        clientSecret: sandboxClientSecret(apiKeyPepper),
      }),
      meta: metaEndpoints(config.meta, {
        publicBaseUrl: config.publicBaseUrl,
        internalUrl: config.sandboxInternalUrl,
        clientSecret: sandboxClientSecret(apiKeyPepper),
      }),
      tokenKeys: createTokenKeyring(loadTokenKeys({ configured: config.tokenEncryptionKey, dataDir: config.dataDir })),
      redirectUri: `${config.publicBaseUrl.replace(/\/$/, '')}/oauth/callback`,
    },
  };
  jobs.register(...serviceJobs, ...(options.extraJobKinds ?? []));
  await authenticator.ready();
  let jobsStarted = false;
  return {
    deps,
    async startJobs({ work }) {
      jobsStarted = true;
      await jobs.start({ work, deps });
      await scheduleServiceJobs(jobs);
    },
    jobQueuesExist: () => jobs.queuesExist(),
    async stopJobs(timeoutMs) {
      if (jobsStarted) await jobs.stop({ timeoutMs });
    },
    async close() {
      if (jobsStarted) await jobs.stop({ timeoutMs: config.shutdownTimeoutMs });
      await deps.resourceWatch.close();
      await deps.outbound.close();
      await authenticator.close();
      await limiter.close();
    },
  };
}
