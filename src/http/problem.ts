// Renders every error as RFC 9457 problem+json; unexpected faults become a logged 500 without details.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnavailable, isStatementStopped, isTransactionConflict } from '../db/availability.ts';
import { ApiError, toProblem } from '../errors.ts';

// Long enough for a pooled client to reconnect to a restarted server, short enough not to stall a client.
const DATABASE_RETRY_AFTER_SECONDS = '1';
// A statement stopped at the time bound met a busy or locked database: give it longer than a reconnect.
const TIMEOUT_RETRY_AFTER_SECONDS = '5';

export function problemResponse(error: ApiError, requestId: string, instance?: string): Response {
  const headers = new Headers({ 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId });
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(toProblem(error, requestId, instance)), { status: error.status, headers });
}

/**
 * Maps anything thrown to an ApiError; what is neither one, nor a database outage, nor a transaction the database
 * rolled back for meeting another, is an internal fault.
 */
export function asApiError(error: unknown): { apiError: ApiError; internal: boolean } {
  if (error instanceof ApiError) return { apiError: error, internal: false };
  if (isDatabaseUnavailable(error)) {
    const apiError = new ApiError('database_unavailable', 'The database cannot be reached right now; retry shortly.', {
      headers: { 'Retry-After': DATABASE_RETRY_AFTER_SECONDS },
    });
    return { apiError, internal: false };
  }
  if (isTransactionConflict(error)) {
    const apiError = new ApiError(
      'transaction_conflict',
      'This request met another at the same moment and the database rolled back its transaction; retry shortly.',
      { headers: { 'Retry-After': DATABASE_RETRY_AFTER_SECONDS } },
    );
    return { apiError, internal: false };
  }
  if (isStatementStopped(error)) {
    const apiError = new ApiError(
      'database_timeout',
      'A statement of this request ran past the time the service allows one to run, and the database stopped it; nothing was written. Retry shortly, or narrow the request.',
      { headers: { 'Retry-After': TIMEOUT_RETRY_AFTER_SECONDS } },
    );
    return { apiError, internal: false };
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code =
      error.status === 413 ? 'payload_too_large' : error.status === 415 ? 'unsupported_media_type' : 'bad_request';
    return { apiError: new ApiError(code, error.message || 'The request is malformed.'), internal: false };
  }
  return {
    apiError: new ApiError('internal', 'An unexpected error occurred; quote the request id when reporting it.'),
    internal: true,
  };
}

export function handleError(error: unknown, c: Context): Response {
  const { apiError, internal } = asApiError(error);
  const requestId = c.get('requestId') ?? 'unknown';
  if (internal) c.get('log')?.error({ err: error, request_id: requestId }, 'unhandled error');
  else if (apiError.code === 'database_unavailable')
    c.get('log')?.warn({ err: error, request_id: requestId }, 'database unavailable');
  else if (apiError.code === 'transaction_conflict')
    c.get('log')?.warn({ err: error, request_id: requestId }, 'transaction rolled back: it met another');
  else if (apiError.code === 'database_timeout')
    c.get('log')?.warn({ err: error, request_id: requestId }, "statement stopped by the database's time bound");
  return problemResponse(apiError, requestId, c.req.path);
}
