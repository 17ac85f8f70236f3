// Tells a database that cannot be reached right now (restarting, refusing or dropping connections), and a
// transaction it rolled back for meeting another (a deadlock), from a fault in our own code: the first two
// are a 503 the client may retry, the last a 500. postgres.js reconnects on the next query by itself, so
// recognising the error is all recovery needs.

// Socket errors from node:net while connecting to, reading from or writing to the server.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);
// postgres.js's own connection errors (CONNECTION_ENDED also covers a client closed during shutdown).
const CLIENT_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
// SQLSTATEs a server sends while it shuts down, restarts or is full: admin_shutdown, crash_shutdown,
// cannot_connect_now, too_many_connections (class 08, connection_exception, is matched by prefix).
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

function unavailable(error: { code?: unknown; syscall?: unknown; name?: unknown }): boolean {
  const code = error.code;
  if (typeof code !== 'string') return false;
  if (CLIENT_CODES.has(code) || SOCKET_CODES.has(code)) return true;
  // A missing unix socket (the embedded database's bridge gone) reports ENOENT from connect().
  if (code === 'ENOENT') return error.syscall === 'connect';
  return error.name === 'PostgresError' && (code.startsWith('08') || SERVER_STATES.has(code));
}

// SQLSTATEs of a transaction the server rolled back because of another one running at the same moment, which
// PostgreSQL says to retry: serialization_failure and deadlock_detected.
const CONFLICT_STATES = new Set(['40001', '40P01']);

function conflict(error: { code?: unknown; name?: unknown }): boolean {
  return error.name === 'PostgresError' && typeof error.code === 'string' && CONFLICT_STATES.has(error.code);
}

// query_canceled: the server stopped the statement, for running past statement_timeout (the service's bound on
// every connection, DATABASE_QUERY_TIMEOUT_MS) or on an operator's pg_cancel_backend. The connection stays usable.
function stopped(error: { code?: unknown; name?: unknown }): boolean {
  return error.name === 'PostgresError' && error.code === '57014';
}

/** Whether the error, or one it wraps up to four deep, passes `test`. */
function wraps(error: unknown, test: (error: { code?: unknown; syscall?: unknown; name?: unknown }) => boolean) {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether the error, or one it wraps, says the database cannot be reached right now. */
export const isDatabaseUnavailable = (error: unknown): boolean => wraps(error, unavailable);

/** Whether the error, or one it wraps, is a deadlock or serialization failure: the transaction was rolled back. */
export const isTransactionConflict = (error: unknown): boolean => wraps(error, conflict);

/** Whether the error, or one it wraps, is a statement the server stopped (statement_timeout, or cancelled). */
export const isStatementStopped = (error: unknown): boolean => wraps(error, stopped);
