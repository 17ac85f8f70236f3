// Configuration from environment variables: one pure function, so main.ts is the only reader of process.env.
// The settings of background work and of the outside providers have their own modules beside this one.
import { createRequire } from 'node:module';
import {
  loadAgentsConfig,
  loadJobsConfig,
  loadKnowledgeConfig,
  loadSequencesConfig,
  loadWebhooksConfig,
  type AgentsConfig,
  type JobsConfig,
  type KnowledgeConfig,
  type SequencesConfig,
  type WebhooksConfig,
} from './background-work-config.ts';
import { int, list, type Env } from './config-values.ts';
import { DEFAULT_EMBEDDED_SHARED_BUFFERS_MB, MAX_EMBEDDED_SHARED_BUFFERS_MB } from './db/embedded-settings.ts';
import { loadGoogleConfig, loadMetaConfig, type GoogleConfig, type MetaConfig } from './provider-config.ts';

// package.json's version, kept equal to the contract's info.version (test/app/docs-pages.test.ts checks it).
const serviceVersion = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

export interface RateLimitConfig {
  /** Requests per window for one credential (API key, or user for a JWT). */
  perCredential: number;
  /** Requests per window for one client address on public operations. */
  perAddress: number;
  windowSeconds: number;
  /** How often each instance merges its counts into the shared table. */
  syncIntervalMs: number;
}

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl?: string;
  /**
   * PostgreSQL: the service's pool size (connections it may hold at once), the longest wait to open a connection,
   * and the longest a statement or a silent connection may take (then 503).
   */
  database: {
    poolSize: number;
    connectTimeoutMs: number;
    queryTimeoutMs: number;
    transactionGuard: boolean;
    /** The embedded database's buffer cache (EMBEDDED_SHARED_BUFFERS_MB); ignored with DATABASE_URL. */
    embeddedSharedBuffersMb: number;
  };
  dataDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  jwt: { secret?: string; issuer: string; audience: string; ttlSeconds: number };
  /** The admin panel's refresh session (src/admin/session-routes.ts): its absolute lifetime from sign-in. */
  adminSession: { ttlSeconds: number };
  apiKeyPepper?: string;
  rateLimit: RateLimitConfig;
  /** Origins allowed to call /mcp from a browser; requests with another Origin get 403. */
  mcpAllowedOrigins: string[];
  mcpResultCapBytes: number;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  trustProxy: boolean;
  publicBaseUrl: string;
  /** How long a stop signal waits for in-flight requests before cutting them and exiting non-zero. */
  shutdownTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (Node's default, 5 s); above a load balancer's own idle timeout. */
  keepAliveTimeoutMs: number;
  /** Fetching user-given URLs: whether loopback/private addresses are reachable, and our User-Agent. */
  outbound: { allowPrivate: boolean; userAgent: string };
  jobs: JobsConfig;
  webhooks: WebhooksConfig;
  google: GoogleConfig;
  meta: MetaConfig;
  knowledge: KnowledgeConfig;
  /** TOKEN_ENCRYPTION_KEY: `<id>:<base64 32 bytes>`, comma-separated (first seals); unset: a key file in DATA_DIR. */
  tokenEncryptionKey?: string;
  /** Where the service reaches its own sandbox provider, server to server (token, userinfo, Gmail send). */
  sandboxInternalUrl: string;
  /** A get_operation wait re-reads the operation this often even without a wake-up (a lost NOTIFY costs at most this). */
  operationWaitRecheckMs: number;
  /** How often a running operation's job records that its worker lives (the sweep retries one whose beat stopped). */
  operationHeartbeatMs: number;
  sequences: SequencesConfig;
  agents: AgentsConfig;
}

// Each request holds a connection while it queries, so 0 would leave every request waiting for good.
function poolSize(env: Env): number {
  const size = int(env, 'DATABASE_POOL_SIZE', 10);
  if (size < 1) throw new Error(`DATABASE_POOL_SIZE must be at least 1, got "${env.DATABASE_POOL_SIZE}"`);
  return size;
}

function embeddedSharedBuffersMb(env: Env): number {
  const mb = int(env, 'EMBEDDED_SHARED_BUFFERS_MB', DEFAULT_EMBEDDED_SHARED_BUFFERS_MB);
  if (mb < 1 || mb > MAX_EMBEDDED_SHARED_BUFFERS_MB)
    throw new Error(
      `EMBEDDED_SHARED_BUFFERS_MB must be from 1 to ${MAX_EMBEDDED_SHARED_BUFFERS_MB}, got "${env.EMBEDDED_SHARED_BUFFERS_MB}"`,
    );
  return mb;
}

export function loadConfig(env: Env): AppConfig {
  if (!env.META_APP_ID !== !env.META_APP_SECRET) {
    throw new Error('set both META_APP_ID and META_APP_SECRET for live Meta ads, or neither for sandbox mode');
  }
  if (!env.GOOGLE_CLIENT_ID !== !env.GOOGLE_CLIENT_SECRET) {
    throw new Error('set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET for live Gmail, or neither for sandbox mode');
  }
  const port = int(env, 'PORT', 3000);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    database: {
      poolSize: poolSize(env),
      connectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 10_000) || 10_000,
      queryTimeoutMs: int(env, 'DATABASE_QUERY_TIMEOUT_MS', 30_000) || 30_000,
      transactionGuard: env.DATABASE_TRANSACTION_GUARD !== 'false',
      embeddedSharedBuffersMb: embeddedSharedBuffersMb(env),
    },
    dataDir: env.DATA_DIR || './data',
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576),
    jwt: {
      secret: env.JWT_SECRET || undefined,
      issuer: env.JWT_ISSUER || 'service',
      audience: env.JWT_AUDIENCE || 'service-api',
      ttlSeconds: int(env, 'JWT_TTL_SECONDS', 900),
    },
    adminSession: { ttlSeconds: int(env, 'ADMIN_SESSION_TTL_SECONDS', 14 * 86_400) || 14 * 86_400 },
    apiKeyPepper: env.API_KEY_PEPPER || undefined,
    rateLimit: {
      perCredential: int(env, 'RATE_LIMIT_PER_CREDENTIAL', 600),
      perAddress: int(env, 'RATE_LIMIT_PER_ADDRESS', 120),
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60),
      syncIntervalMs: int(env, 'RATE_LIMIT_SYNC_MS', 1000),
    },
    mcpAllowedOrigins: list(env.MCP_ALLOWED_ORIGINS),
    mcpResultCapBytes: int(env, 'MCP_RESULT_CAP_BYTES', 100_000),
    trustProxy: env.TRUST_PROXY === 'true',
    publicBaseUrl: env.PUBLIC_BASE_URL || `http://${host}:${port}`,
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000) || 5_000,
    outbound: {
      allowPrivate: env.OUTBOUND_ALLOW_PRIVATE === 'true',
      userAgent: env.OUTBOUND_USER_AGENT || `service-mcp/${serviceVersion} (+outbound fetcher)`,
    },
    jobs: loadJobsConfig(env),
    sequences: loadSequencesConfig(env),
    agents: loadAgentsConfig(env),
    google: loadGoogleConfig(env),
    meta: loadMetaConfig(env),
    tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY || undefined,
    knowledge: loadKnowledgeConfig(env),
    sandboxInternalUrl: (
      env.SANDBOX_INTERNAL_URL ||
      `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`
    ).replace(/\/$/, ''),
    operationWaitRecheckMs: int(env, 'OPERATION_WAIT_RECHECK_MS', 5_000) || 5_000,
    operationHeartbeatMs: int(env, 'OPERATION_HEARTBEAT_MS', 15_000) || 15_000,
    webhooks: loadWebhooksConfig(env),
  };
}
