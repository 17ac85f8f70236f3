// The Idempotency-Key step of the operation guard, for operations whose contract declares the header. The
// first request with a key claims it and runs; its response is stored (sealed) and replayed to a retry of
// the same request with `Idempotent-Replayed: true`. The same key on a different request is 422, on one
// still running 409. Outcomes a retry should run again are not stored: 429, 5xx, and 400 (the input was
// refused before anything ran, so the corrected request may reuse the key, as Stripe does).
import { createHash, randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Sql } from 'postgres';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyRecord,
} from './idempotency-data.ts';
import type { Clock } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { routes, type OperationMeta } from '../generated/routes.ts';
import { responseSeal, type ResponseSeal } from './idempotency-seal.ts';
import type { AppEnv } from './request-context.ts';

export interface IdempotencyOptions {
  sql: Sql;
  clock: Clock;
  /** The server secret the key sealing stored responses is derived from (the API-key pepper). */
  secret: Uint8Array;
  /** How long a key and its response are kept; 24 h by default. */
  ttlSeconds?: number;
  /**
   * How long a claim holds before a retry may take it over, its process presumed dead; 60 s by default.
   * A request running longer than this can run twice: keep it above the slowest operation declaring the key.
   */
  lockSeconds?: number;
}

const HEADER = 'idempotency-key';
/** Response headers a replay repeats; the rest (request id, rate limits) describe the replaying request. */
const KEPT_HEADERS = ['content-type', 'location', 'content-location', 'content-disposition'];

interface Parser {
  safeParse(value: unknown): { success: boolean };
}

/** The contract's schema of the operation's Idempotency-Key header, when it declares one. */
function keySchema(op: OperationMeta): Parser | undefined {
  const request = (routes[op.handler] as { request?: { headers?: { shape?: Record<string, Parser> } } } | undefined)
    ?.request;
  return request?.headers?.shape?.[HEADER];
}

export function declaresIdempotencyKey(op: OperationMeta): boolean {
  return keySchema(op) !== undefined;
}

function storable(status: number): boolean {
  return status !== 400 && status !== 429 && status < 500;
}

/** Sorts object keys, so a retry whose client serialized the same JSON in another order still matches. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
}

/** What must match for a retry to be the same request: method, path, query and body. */
async function requestHash(c: Context<AppEnv>): Promise<string> {
  const text = await c.req.text();
  let body = text;
  try {
    if (text !== '') body = JSON.stringify(canonical(JSON.parse(text)));
  } catch {
    // Not JSON: the text itself is compared (the route's validation refuses it in any case).
  }
  const url = new URL(c.req.url);
  return createHash('sha256').update(`${c.req.method}\n${url.pathname}\n${url.search}\n`).update(body).digest('hex');
}

function replay(record: IdempotencyRecord, body: Uint8Array): Response {
  const headers = new Headers(record.response_headers ?? {});
  headers.set('Idempotent-Replayed', 'true');
  const empty = body.length === 0 || record.response_status === 204 || record.response_status === 304;
  return new Response(empty ? null : Buffer.from(body), { status: record.response_status ?? 500, headers });
}

/** Answers a request whose key another record holds: its replay, or why it cannot run. */
function answerHeld(record: IdempotencyRecord, hash: string, recordId: string, seal: ResponseSeal): Response {
  if (record.request_hash !== hash) {
    throw new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request; use a new key for a new request.',
    );
  }
  if (record.state === 'in_progress' || record.response_body === null) {
    throw new ApiError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still running; retry once it has finished.',
    );
  }
  return replay(record, seal.open(recordId, record.response_body));
}

async function stored(res: Response, seal: ResponseSeal, recordId: string) {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = seal.seal(recordId, new Uint8Array(await res.clone().arrayBuffer()));
  return { status: res.status, headers, body };
}

/** The step for one operation, or undefined when its contract declares no Idempotency-Key. */
export function idempotencyStep(op: OperationMeta, options: IdempotencyOptions): MiddlewareHandler<AppEnv> | undefined {
  const schema = keySchema(op);
  if (!schema) return undefined;
  const { sql, clock } = options;
  const ttlMs = (options.ttlSeconds ?? 86_400) * 1000;
  const lockMs = (options.lockSeconds ?? 60) * 1000;
  if (!(ttlMs > 0 && lockMs > 0 && lockMs <= ttlMs))
    throw new Error('idempotency: ttlSeconds and lockSeconds must be positive, the lock no longer than the ttl');
  const seal = responseSeal(options.secret);
  return async (c, next) => {
    const key = c.req.header(HEADER);
    // Without a key, or with one the contract refuses (the route's validation answers 400), nothing is kept.
    if (key === undefined || !schema.safeParse(key).success) return next();
    const principal = c.get('principal');
    const account = c.get('account');
    // An account login has no workspace: its keys are its person's, never shared with others at its address.
    const scope = principal
      ? principal.workspaceId
      : account
        ? `user:${account.userId}`
        : `addr:${c.get('clientAddress')}`;
    const recordId = `${scope}\n${key}`;
    const hash = await requestHash(c);
    const claim = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const now = clock.now();
      const claimed = await claimIdempotencyKey(sql, scope, key, {
        requestHash: hash,
        claim,
        now,
        expiresAt: new Date(now.getTime() + ttlMs),
        lockedUntil: new Date(now.getTime() + lockMs),
      });
      if (claimed) break;
      const record = await findIdempotencyKey(sql, scope, key);
      // Gone between the two statements (released or swept): claim again; a record that keeps vanishing is busy.
      if (record) return answerHeld(record, hash, recordId, seal);
      if (attempt >= 2)
        throw new ApiError(
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still running; retry shortly.',
        );
    }
    let outcome: Awaited<ReturnType<typeof stored>> | undefined;
    try {
      await next();
      if (storable(c.res.status)) outcome = await stored(c.res, seal, recordId);
    } finally {
      await (outcome
        ? completeIdempotencyKey(sql, scope, key, claim, outcome)
        : releaseIdempotencyKey(sql, scope, key, claim)
      ).catch((error: unknown) => {
        // The operation's own outcome stands; the key stays claimed until its lock passes.
        c.get('log').warn({ err: error, request_id: c.get('requestId') }, 'idempotency record not updated');
      });
    }
  };
}
