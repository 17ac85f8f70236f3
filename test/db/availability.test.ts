// Which database errors mean "cannot be reached right now" (503, retry), or a statement the server stopped (503), rather than a fault (500).
import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { isDatabaseUnavailable, isStatementStopped } from '../../src/db/availability.ts';

const socketError = (code: string, syscall = 'connect') =>
  Object.assign(new Error(`${syscall} ${code}`), { code, errno: -1, syscall });
const clientError = (code: string) => Object.assign(new Error(`write ${code}`), { code, errno: code });
const serverError = (code: string) =>
  Object.assign(Object.create(postgres.PostgresError.prototype) as Error, {
    name: 'PostgresError',
    code,
    message: code,
  });

describe('isDatabaseUnavailable', () => {
  it.each<[string, unknown]>([
    ['a refused connection', socketError('ECONNREFUSED')],
    ['a reset connection', socketError('ECONNRESET', 'read')],
    ['a missing unix socket', socketError('ENOENT')],
    ['a connection postgres.js saw close', clientError('CONNECTION_CLOSED')],
    ['a client ended during shutdown', clientError('CONNECTION_ENDED')],
    ['a connect timeout', clientError('CONNECT_TIMEOUT')],
    ['admin_shutdown', serverError('57P01')],
    ['crash_shutdown', serverError('57P02')],
    ['cannot_connect_now while the server starts', serverError('57P03')],
    ['a connection_failure', serverError('08006')],
    ['too_many_connections', serverError('53300')],
    ['an outage wrapped as a cause', new Error('query failed', { cause: clientError('CONNECTION_CLOSED') })],
  ])('counts %s as unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a unique violation', serverError('23505')],
    ['a NUL in text', serverError('22021')],
    ['a missing file that is not a socket', socketError('ENOENT', 'open')],
    ['a SQLSTATE-like code on a non-database error', Object.assign(new Error('x'), { code: '57P01' })],
    ['a plain error', new Error('boom')],
    ['a non-error', 'ECONNREFUSED'],
  ])('counts %s as a fault', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isStatementStopped', () => {
  it('counts a query_canceled from the server (statement_timeout), wrapped or not, as stopped', () => {
    expect(isStatementStopped(serverError('57014'))).toBe(true);
    expect(isStatementStopped(new Error('query failed', { cause: serverError('57014') }))).toBe(true);
  });

  it('counts neither another SQLSTATE nor a look-alike code on a non-database error as stopped', () => {
    expect(isStatementStopped(serverError('57P01'))).toBe(false);
    expect(isStatementStopped(Object.assign(new Error('x'), { code: '57014' }))).toBe(false);
    expect(isDatabaseUnavailable(serverError('57014'))).toBe(false);
  });
});
