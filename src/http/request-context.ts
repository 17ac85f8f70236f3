// Per-request context: the request id (echoed in X-Request-Id), the logger, and one access-log line
// per request carrying the request id. Headers are never logged, so no credential reaches the logs.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { Principal } from '../deps.ts';

export interface AppVariables {
  requestId: string;
  log: Logger;
  principal: Principal | null;
  clientAddress: string;
}

export type AppEnv = { Variables: AppVariables; Bindings: { incoming?: { socket?: { remoteAddress?: string } } } };

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestContext(options: { log: Logger; trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('log', options.log);
    c.set('principal', null);
    c.set('clientAddress', clientAddress(c.req.header('x-forwarded-for'), c.env?.incoming?.socket?.remoteAddress, options.trustProxy));
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    if (options.log.isLevelEnabled('info')) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      options.log.info({ request_id: requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
    }
  };
}

function clientAddress(forwarded: string | undefined, socket: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwarded) return forwarded.split(',')[0].trim();
  return socket ?? 'local';
}
