// Renders every error as RFC 9457 problem+json; unexpected faults become a logged 500 without details.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnavailable, isStatementStopped, isTransactionConflict } from '../db/availability.ts';
import { ApiError, toProblem, type ErrorCode } from '../errors.ts';

// Errors of the database that are not a fault of ours: each a 503 the client may retry after Retry-After, and the
// warning the log gets. 1 s is long enough for a pooled client to reconnect to a restarted server, short enough not
// to stall a client; a statement stopped at the time bound met a busy or locked database, and gets longer.
const DATABASE_ERRORS: Array<{
  matches: (error: unknown) => boolean;
  code: ErrorCode;
  detail: string;
  retryAfterSeconds: string;
  log: string;
}> = [
  {
    matches: isDatabaseUnavailable,
    code: 'database_unavailable',
    detail: 'The database cannot be reached right now; retry shortly.',
    retryAfterSeconds: '1',
    log: 'database unavailable',
  },
  {
    matches: isTransactionConflict,
    code: 'transaction_conflict',
    detail: 'This request met another at the same moment and the database rolled back its transaction; retry shortly.',
    retryAfterSeconds: '1',
    log: 'transaction rolled back: it met another',
  },
  {
    matches: isStatementStopped,
    code: 'database_timeout',
    detail:
      'A statement of this request ran past the time the service allows one to run, and the database stopped it; nothing was written. Retry shortly, or narrow the request.',
    retryAfterSeconds: '5',
    log: "statement stopped by the database's time bound",
  },
];

export function problemResponse(error: ApiError, requestId: string, instance?: string): Response {
  const headers = new Headers({ 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId });
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(toProblem(error, requestId, instance)), { status: error.status, headers });
}

/**
 * Maps anything thrown to an ApiError; what is neither one, nor one of the database's errors above (with the warning
 * the log gets), is an internal fault.
 */
export function asApiError(error: unknown): { apiError: ApiError; internal: boolean; warning?: string } {
  if (error instanceof ApiError) return { apiError: error, internal: false };
  const database = DATABASE_ERRORS.find((kind) => kind.matches(error));
  if (database) {
    const headers = { 'Retry-After': database.retryAfterSeconds };
    return {
      apiError: new ApiError(database.code, database.detail, { headers }),
      internal: false,
      warning: database.log,
    };
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
  const { apiError, internal, warning } = asApiError(error);
  const requestId = c.get('requestId') ?? 'unknown';
  if (internal) c.get('log')?.error({ err: error, request_id: requestId }, 'unhandled error');
  else if (warning) c.get('log')?.warn({ err: error, request_id: requestId }, warning);
  return problemResponse(apiError, requestId, c.req.path);
}
