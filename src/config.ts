// Configuration from environment variables: one pure function, so main.ts is the only reader of process.env.
import { createRequire } from 'node:module';

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
  /** PostgreSQL: the longest wait to open a connection, and the longest a statement or a silent connection may take (then 503). */
  database: { connectTimeoutMs: number; queryTimeoutMs: number; transactionGuard: boolean };
  dataDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  jwt: { secret?: string; issuer: string; audience: string; ttlSeconds: number };
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

/** Store agents: how long a run waits for a person, and the optional model writer. */
export interface AgentsConfig {
  /** A run waiting for a connector's consent fails with `authorization_timeout` after this. */
  authorizationTimeoutSeconds: number;
  /** A run waiting for a sequence's approval fails with `approval_timeout` after this. */
  approvalTimeoutSeconds: number;
  /** An OpenAI-compatible chat-completions endpoint; unset: the grounded template writer only. */
  llm?: { baseUrl: string; apiKey: string; model: string; timeoutMs: number };
}

function loadAgentsConfig(env: Env): AgentsConfig {
  const baseUrl = env.LLM_BASE_URL?.trim().replace(/\/+$/, '');
  const apiKey = env.LLM_API_KEY?.trim();
  if (baseUrl && !/^https?:\/\/[^/]/.test(baseUrl)) throw new Error(`LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  if (baseUrl && !apiKey) throw new Error('LLM_BASE_URL is set but LLM_API_KEY is not');
  return {
    authorizationTimeoutSeconds: Math.max(60, int(env, 'AGENT_AUTHORIZATION_TIMEOUT_SECONDS', 24 * 3600)),
    approvalTimeoutSeconds: Math.max(60, int(env, 'AGENT_APPROVAL_TIMEOUT_SECONDS', 7 * 24 * 3600)),
    ...(baseUrl && apiKey ? { llm: { baseUrl, apiKey, model: env.LLM_MODEL?.trim() || 'gpt-4o-mini', timeoutMs: int(env, 'LLM_TIMEOUT_MS', 60_000) || 60_000 } } : {}),
  };
}

/** How sequences send: the per-mailbox cap, the pause between two messages of one mailbox, the sender's batch. */
export interface SequencesConfig {
  /** Most messages one mailbox sends in 24 hours, across all sequences. */
  mailboxDailyCap: number;
  /** A random pause in [min, max] ms between two messages of one mailbox. */
  spacingMs: { min: number; max: number };
  /** Messages one sender reserves at a time. */
  claimBatch: number;
  /** A sender silent this long is presumed dead: its reserved messages go back, its in-flight ones become uncertain. */
  staleAfterSeconds: number;
}

function range(env: Env, name: string, fallback: { min: number; max: number }): { min: number; max: number } {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw);
  if (!match) throw new Error(`${name} must be milliseconds or a range such as 2000-8000, got "${raw}"`);
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  if (max < min) throw new Error(`${name}: the range's end is below its start`);
  return { min, max };
}

function loadSequencesConfig(env: Env): SequencesConfig {
  const claimBatch = int(env, 'SEQUENCE_CLAIM_BATCH', 20);
  if (claimBatch < 1) throw new Error('SEQUENCE_CLAIM_BATCH must be at least 1');
  return {
    mailboxDailyCap: int(env, 'SEQUENCE_MAILBOX_DAILY_CAP', 400),
    spacingMs: range(env, 'SEQUENCE_SEND_SPACING_MS', { min: 2000, max: 8000 }),
    claimBatch,
    staleAfterSeconds: Math.max(30, int(env, 'SEQUENCE_STALE_AFTER_SECONDS', 300)),
  };
}

/**
 * Google's OAuth and Gmail endpoints and our OAuth client. With GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET set, gmail connectors are live; without them they run in sandbox mode
 * against the service's own provider (src/sandbox/), through the same code with other endpoints.
 */
export interface GoogleConfig {
  clientId?: string;
  clientSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string;
  userinfoUrl: string;
  gmailApiBase: string;
}

/**
 * Meta's OAuth dialog, token endpoint and Graph API, and our app. With META_APP_ID and
 * META_APP_SECRET set, meta_ads connectors are live; without them they run in sandbox mode against
 * the service's own ads platform (src/sandbox/meta-provider.ts).
 */
export interface MetaConfig {
  appId?: string;
  appSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  graphApiBase: string;
}

/** How the knowledge crawler fetches: politely, and within bounds. */
export interface KnowledgeConfig {
  /** Least pause between two requests to one host (robots.txt may ask for more, up to 10 s). */
  crawlDelayMs: number;
  /** Each page's whole fetch: connect, redirects, headers and body. */
  pageTimeoutMs: number;
  /** Each page's size after decompression. */
  maxPageBytes: number;
}

export interface WebhooksConfig {
  /** Seconds to wait before each retry of a failed delivery; its length is the number of retries. */
  retryScheduleSeconds: number[];
  /** Each attempt's whole time: connect, send, and the receiver's answer. */
  timeoutMs: number;
}

/** Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; about 28 h from first to last attempt. */
export const defaultRetryScheduleSeconds = [5, 300, 1800, 7200, 18000, 36000, 36000];

export interface JobsConfig {
  /** Run background jobs inside the service; false leaves them to `npm run worker` processes. */
  inProcess: boolean;
  /** Jobs of one kind a process runs at once. */
  concurrency: number;
  /** Pause between polls of an empty queue. */
  pollIntervalMs: number;
  /** A running job stays its worker's this long without a renewal: a dead worker's jobs are retried about this long after. */
  leaseSeconds: number;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function seconds(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return list(raw).map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be comma-separated whole seconds, got "${raw}"`);
    return value;
  });
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
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
      connectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 10_000) || 10_000,
      queryTimeoutMs: int(env, 'DATABASE_QUERY_TIMEOUT_MS', 30_000) || 30_000,
      transactionGuard: env.DATABASE_TRANSACTION_GUARD !== 'false',
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
    outbound: {
      allowPrivate: env.OUTBOUND_ALLOW_PRIVATE === 'true',
      userAgent: env.OUTBOUND_USER_AGENT || `service-mcp/${serviceVersion} (+outbound fetcher)`,
    },
    jobs: loadJobsConfig(env),
    sequences: loadSequencesConfig(env),
    agents: loadAgentsConfig(env),
    google: {
      clientId: env.GOOGLE_CLIENT_ID || undefined,
      clientSecret: env.GOOGLE_CLIENT_SECRET || undefined,
      authorizationUrl: env.GOOGLE_AUTHORIZATION_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env.GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
      revocationUrl: env.GOOGLE_REVOCATION_URL || 'https://oauth2.googleapis.com/revoke',
      userinfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
      gmailApiBase: env.GMAIL_API_BASE || 'https://gmail.googleapis.com',
    },
    meta: {
      appId: env.META_APP_ID || undefined,
      appSecret: env.META_APP_SECRET || undefined,
      authorizationUrl: env.META_AUTHORIZATION_URL || 'https://www.facebook.com/v21.0/dialog/oauth',
      tokenUrl: env.META_TOKEN_URL || 'https://graph.facebook.com/v21.0/oauth/access_token',
      graphApiBase: (env.META_GRAPH_API_BASE || 'https://graph.facebook.com/v21.0').replace(/\/$/, ''),
    },
    tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY || undefined,
    knowledge: {
      crawlDelayMs: int(env, 'KNOWLEDGE_CRAWL_DELAY_MS', 1_000),
      pageTimeoutMs: int(env, 'KNOWLEDGE_PAGE_TIMEOUT_MS', 20_000) || 20_000,
      maxPageBytes: int(env, 'KNOWLEDGE_MAX_PAGE_BYTES', 5 * 1024 * 1024) || 5 * 1024 * 1024,
    },
    sandboxInternalUrl: (env.SANDBOX_INTERNAL_URL || `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/$/, ''),
    operationWaitRecheckMs: int(env, 'OPERATION_WAIT_RECHECK_MS', 5_000) || 5_000,
    operationHeartbeatMs: int(env, 'OPERATION_HEARTBEAT_MS', 15_000) || 15_000,
    webhooks: {
      retryScheduleSeconds: seconds(env, 'WEBHOOK_RETRY_SCHEDULE', defaultRetryScheduleSeconds),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000) || 15_000,
    },
  };
}

function loadJobsConfig(env: Env): JobsConfig {
  const inProcess = env.JOBS_IN_PROCESS !== 'false';
  // The embedded database admits one process, so no separate worker could ever run the jobs.
  if (!inProcess && !env.DATABASE_URL) throw new Error('JOBS_IN_PROCESS=false needs DATABASE_URL (a worker cannot share the embedded database)');
  const concurrency = int(env, 'JOBS_CONCURRENCY', 4);
  if (concurrency < 1) throw new Error('JOBS_CONCURRENCY must be at least 1');
  const pollIntervalMs = int(env, 'JOBS_POLL_INTERVAL_MS', 1000);
  if (pollIntervalMs < 500) throw new Error('JOBS_POLL_INTERVAL_MS must be at least 500');
  const leaseSeconds = int(env, 'JOB_LEASE_SECONDS', 30);
  if (leaseSeconds < 2) throw new Error('JOB_LEASE_SECONDS must be at least 2');
  return { inProcess, concurrency, pollIntervalMs, leaseSeconds };
}
