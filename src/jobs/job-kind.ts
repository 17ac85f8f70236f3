// What a background job is: a named kind with a validated payload, a handler, and the retry and
// expiry policy the queue applies to it. A module defines its kind once, as a constant, with defineJob;
// callers import the constant to enqueue it, and the worker hands the handler the service's deps (`D`)
// when it runs, so a kind needs nothing at definition time (trigger.dev's `task()`).
import type { TransactionSql } from 'postgres';
import type { z } from 'zod';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 means a failure is final. */
  limit: number;
  /** Seconds before the first retry. */
  delaySeconds: number;
  /** Double the delay at each retry (with jitter) instead of keeping it fixed. */
  backoff: boolean;
}

/**
 * pg-boss queue policies: `standard` has no deduplication; `short` keeps one queued job per
 * singleton key; `singleton` runs one per key at a time; `stately` both.
 */
export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately';

export interface JobContext {
  /** The job's id; a retry keeps it, so effects keyed by it are not repeated. */
  id: string;
  kind: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** Aborted shortly before the job expires or its lease is lost, and when shutdown runs out of time: stop work and throw. */
  signal: AbortSignal;
  /**
   * Runs `fn` in a transaction at most once for this job and `step`; when it already ran (a
   * retry after a crash), returns its stored JSON result instead. Write the step's effects with
   * `tx` so the effect and its checkpoint commit together.
   */
  once<T>(step: string, fn: (tx: TransactionSql) => Promise<T>): Promise<T>;
}

export interface JobKind<P = unknown, D = unknown> {
  /** Queue name: lower-case letters, digits, `.`, `_` and `-`, e.g. `webhooks.deliver`. */
  name: string;
  payload: z.ZodType<P>;
  /** `deps` is what the queue was started with (the service's Deps). */
  handler(payload: P, job: JobContext, deps: D): Promise<void>;
  retry: RetryPolicy;
  /**
   * The longest run: a run still going after this is aborted and retried (a hung handler). A dead
   * worker's job comes back sooner, when its lease lapses (src/jobs/job-lease.ts).
   */
  expireInSeconds: number;
  policy: QueuePolicy;
  /** Default singleton key for a payload (used with the `short`/`singleton`/`stately` policies). */
  singletonKey?(payload: P): string;
}

export type JobKindDefinition<P, D = unknown> = Pick<JobKind<P, D>, 'name' | 'payload' | 'handler'> &
  Partial<Omit<JobKind<P, D>, 'name' | 'payload' | 'handler'>>;

export const defaultRetry: RetryPolicy = { limit: 5, delaySeconds: 10, backoff: true };
const DEFAULT_EXPIRE_SECONDS = 15 * 60;
const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** Fills in the defaults and throws at definition time on a malformed name or policy. */
export function defineJob<P, D = unknown>(definition: JobKindDefinition<P, D>): JobKind<P, D> {
  const kind: JobKind<P, D> = {
    retry: defaultRetry,
    expireInSeconds: DEFAULT_EXPIRE_SECONDS,
    policy: 'standard',
    ...definition,
  };
  if (!NAME.test(kind.name)) throw new Error(`job kind name "${kind.name}" must match ${NAME}`);
  const { limit, delaySeconds } = kind.retry;
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`${kind.name}: retry.limit must be an integer >= 0`);
  if (!Number.isInteger(delaySeconds) || delaySeconds < 0) {
    throw new Error(`${kind.name}: retry.delaySeconds must be an integer >= 0`);
  }
  // pg-boss measures expiry in whole seconds and refuses 0; below 2 s the early abort has no room.
  if (!Number.isInteger(kind.expireInSeconds) || kind.expireInSeconds < 2) {
    throw new Error(`${kind.name}: expireInSeconds must be an integer >= 2`);
  }
  return kind;
}
