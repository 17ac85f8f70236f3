// The idempotency_keys table: one record per (scope, key), claimed by the first request and holding its
// response once done. `scope` is the credential's workspace id, or `addr:<client address>` for public
// operations. Times come from the caller's clock, never the database's, so expiry follows the app's clock.
import { query, type Queryable } from '../db/queryable.ts';

export interface IdempotencyRecord {
  request_hash: string;
  state: 'in_progress' | 'done';
  claim: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
  expires_at: Date;
  locked_until: Date;
}

export interface ClaimRequest {
  requestHash: string;
  /** A fresh random id naming this claim; completion and release only touch the record while it holds it. */
  claim: string;
  now: Date;
  expiresAt: Date;
  lockedUntil: Date;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

const columns = (q: Queryable) =>
  query(q)`request_hash, state, claim, response_status, response_headers, response_body, expires_at, locked_until`;

/**
 * Claims the key for one run, atomically across instances: a new key, an expired record (treated as absent,
 * so keys lapse without the sweep), or an in-progress claim of the same request whose lock has passed (its
 * process died). Returns false when another record stands: the caller reads it to decide.
 */
export async function claimIdempotencyKey(
  q: Queryable,
  scope: string,
  key: string,
  request: ClaimRequest,
): Promise<boolean> {
  const rows = await query(q)`
    insert into idempotency_keys (scope, key, request_hash, state, claim, created_at, expires_at, locked_until)
    values (${scope}, ${key}, ${request.requestHash}, 'in_progress', ${request.claim}, ${request.now}, ${request.expiresAt}, ${request.lockedUntil})
    on conflict (scope, key) do update set
      request_hash = excluded.request_hash, state = 'in_progress', claim = excluded.claim,
      response_status = null, response_headers = null, response_body = null,
      created_at = excluded.created_at, expires_at = excluded.expires_at, locked_until = excluded.locked_until
    where idempotency_keys.expires_at <= excluded.created_at
       or (idempotency_keys.state = 'in_progress' and idempotency_keys.locked_until <= excluded.created_at
           and idempotency_keys.request_hash = excluded.request_hash)
    returning claim`;
  return rows.length === 1;
}

export async function findIdempotencyKey(
  q: Queryable,
  scope: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const [row] = await query(q)<IdempotencyRecord[]>`
    select ${columns(q)} from idempotency_keys where scope = ${scope} and key = ${key}`;
  return row;
}

/** Stores the response of the run holding `claim`; a run whose claim was taken over stores nothing. */
export async function completeIdempotencyKey(
  q: Queryable,
  scope: string,
  key: string,
  claim: string,
  response: StoredResponse,
): Promise<void> {
  await query(q)`
    update idempotency_keys
    set state = 'done', response_status = ${response.status}, response_headers = ${query(q).json(response.headers)},
        response_body = ${Buffer.from(response.body)}
    where scope = ${scope} and key = ${key} and claim = ${claim} and state = 'in_progress'`;
}

/** Frees the key for another run (the outcome was not one to replay: 429, 5xx, refused input). */
export async function releaseIdempotencyKey(q: Queryable, scope: string, key: string, claim: string): Promise<void> {
  await query(q)`
    delete from idempotency_keys where scope = ${scope} and key = ${key} and claim = ${claim} and state = 'in_progress'`;
}

/**
 * Deletes the records expired at `now`, across every scope (an operator's job, not a tenant's query), and
 * returns how many went. Expired records are already inert; this only reclaims their space.
 */
export async function sweepIdempotencyKeys(q: Queryable, now: Date): Promise<number> {
  const result = await query(q)`delete from idempotency_keys where expires_at <= ${now}`;
  return result.count;
}
