// The configuration of work the service does in the background: the job queue, sequence sending, store
// agents, webhook delivery and the knowledge crawler.
import { int, range, seconds, type Env } from './config-values.ts';

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

export function loadJobsConfig(env: Env): JobsConfig {
  const inProcess = env.JOBS_IN_PROCESS !== 'false';
  // The embedded database admits one process, so no separate worker could ever run the jobs.
  if (!inProcess && !env.DATABASE_URL)
    throw new Error('JOBS_IN_PROCESS=false needs DATABASE_URL (a worker cannot share the embedded database)');
  const concurrency = int(env, 'JOBS_CONCURRENCY', 4);
  if (concurrency < 1) throw new Error('JOBS_CONCURRENCY must be at least 1');
  const pollIntervalMs = int(env, 'JOBS_POLL_INTERVAL_MS', 1000);
  if (pollIntervalMs < 500) throw new Error('JOBS_POLL_INTERVAL_MS must be at least 500');
  const leaseSeconds = int(env, 'JOB_LEASE_SECONDS', 30);
  if (leaseSeconds < 2) throw new Error('JOB_LEASE_SECONDS must be at least 2');
  return { inProcess, concurrency, pollIntervalMs, leaseSeconds };
}

/** How sequences send: the per-mailbox cap, the pause between two messages of one mailbox, the sender's batch. */
export interface SequencesConfig {
  /** Most messages one mailbox sends in 24 hours, across all sequences. */
  mailboxDailyCap: number;
  /** A random pause in [min, max] ms between two messages of one mailbox. */
  spacingMs: { min: number; max: number };
  /** Messages one sender reserves at a time. */
  claimBatch: number;
  /**
   * Messages of one mailbox handed to the provider at once when there is no pause between messages (each in
   * flight is `uncertain` if its sender dies), 8 unless set; with a pause (the default), always one.
   */
  sendsInFlight: number;
  /** A sender silent this long is presumed dead: its reserved messages go back, its in-flight ones become uncertain. */
  staleAfterSeconds: number;
  /** A pixel fetch or link follow this soon after the send is a machine's (docs/tracking.md). */
  trackingMachineWindowSeconds: number;
}

// Configured with no pause, a mailbox is meant to go fast: eight at once cost about 2 database round trips a
// message instead of 12 one at a time (scripts/bench/sequences-main.ts); a sender killed mid-send then leaves
// up to eight `uncertain` (never sent twice) instead of one.
const DEFAULT_SENDS_IN_FLIGHT = 8;

export function loadSequencesConfig(env: Env): SequencesConfig {
  const claimBatch = int(env, 'SEQUENCE_CLAIM_BATCH', 20);
  if (claimBatch < 1) throw new Error('SEQUENCE_CLAIM_BATCH must be at least 1');
  const sendsInFlight = int(env, 'SEQUENCE_SENDS_IN_FLIGHT', DEFAULT_SENDS_IN_FLIGHT);
  if (sendsInFlight < 1) throw new Error('SEQUENCE_SENDS_IN_FLIGHT must be at least 1');
  return {
    mailboxDailyCap: int(env, 'SEQUENCE_MAILBOX_DAILY_CAP', 400),
    spacingMs: range(env, 'SEQUENCE_SEND_SPACING_MS', { min: 2000, max: 8000 }),
    claimBatch,
    sendsInFlight,
    staleAfterSeconds: Math.max(30, int(env, 'SEQUENCE_STALE_AFTER_SECONDS', 300)),
    trackingMachineWindowSeconds: int(env, 'TRACKING_MACHINE_WINDOW_SECONDS', 10),
  };
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

export function loadAgentsConfig(env: Env): AgentsConfig {
  const baseUrl = env.LLM_BASE_URL?.trim().replace(/\/+$/, '');
  const apiKey = env.LLM_API_KEY?.trim();
  if (baseUrl && !/^https?:\/\/[^/]/.test(baseUrl))
    throw new Error(`LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  if (baseUrl && !apiKey) throw new Error('LLM_BASE_URL is set but LLM_API_KEY is not');
  return {
    authorizationTimeoutSeconds: Math.max(60, int(env, 'AGENT_AUTHORIZATION_TIMEOUT_SECONDS', 24 * 3600)),
    approvalTimeoutSeconds: Math.max(60, int(env, 'AGENT_APPROVAL_TIMEOUT_SECONDS', 7 * 24 * 3600)),
    ...(baseUrl && apiKey
      ? {
          llm: {
            baseUrl,
            apiKey,
            model: env.LLM_MODEL?.trim() || 'gpt-4o-mini',
            timeoutMs: int(env, 'LLM_TIMEOUT_MS', 60_000) || 60_000,
          },
        }
      : {}),
  };
}

export interface WebhooksConfig {
  /** Seconds to wait before each retry of a failed delivery; its length is the number of retries. */
  retryScheduleSeconds: number[];
  /** Each attempt's whole time: connect, send, and the receiver's answer. */
  timeoutMs: number;
}

/** Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; about 28 h from first to last attempt. */
export const defaultRetryScheduleSeconds = [5, 300, 1800, 7200, 18000, 36000, 36000];

export function loadWebhooksConfig(env: Env): WebhooksConfig {
  return {
    retryScheduleSeconds: seconds(env, 'WEBHOOK_RETRY_SCHEDULE', defaultRetryScheduleSeconds),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000) || 15_000,
  };
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

export function loadKnowledgeConfig(env: Env): KnowledgeConfig {
  return {
    crawlDelayMs: int(env, 'KNOWLEDGE_CRAWL_DELAY_MS', 1_000),
    pageTimeoutMs: int(env, 'KNOWLEDGE_PAGE_TIMEOUT_MS', 20_000) || 20_000,
    maxPageBytes: int(env, 'KNOWLEDGE_MAX_PAGE_BYTES', 5 * 1024 * 1024) || 5 * 1024 * 1024,
  };
}
