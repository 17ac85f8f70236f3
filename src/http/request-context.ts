// Per-request context: the request id (echoed in X-Request-Id), the logger, and one access-log line
// per request carrying the request id. Headers are never logged, so no credential reaches the logs.
// The REST request an MCP tool call runs in process inherits the /mcp request's id and client address.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AccountLogin, Principal } from '../auth/principal.ts';

export interface AppVariables {
  requestId: string;
  log: Logger;
  principal: Principal | null;
  /** A login that names no workspace, on the operations that accept one (see operation-guard.ts). */
  account: AccountLogin | null;
  clientAddress: string;
}

/**
 * What the /mcp request verified, handed to the REST request each of its tool calls runs in process.
 * It travels in the Hono env (the second argument of `app.fetch`), which only code in this process can
 * set: the node adapter fills the env of a request from the network with its socket objects alone, so
 * no header a client sends can forge it.
 */
export interface CarriedContext {
  principal: Principal;
  requestId: string;
  clientAddress: string;
}

export type AppEnv = {
  Variables: AppVariables;
  Bindings: { incoming?: { socket?: { remoteAddress?: string } }; carried?: CarriedContext };
};

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestContext(options: { log: Logger; trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const carried = c.env?.carried;
    const incoming = c.req.header('x-request-id');
    const requestId = carried?.requestId ?? (incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID());
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('log', options.log);
    c.set('principal', null);
    c.set('account', null);
    c.set(
      'clientAddress',
      carried?.clientAddress ??
        clientAddress(c.req.header('x-forwarded-for'), c.env?.incoming?.socket?.remoteAddress, options.trustProxy),
    );
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    if (options.log.isLevelEnabled('info')) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const line = { request_id: requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms };
      // Tool calls log under their /mcp request's id; `via` tells their lines from the /mcp line itself.
      options.log.info(carried ? { ...line, via: 'mcp' } : line, 'request');
    }
  };
}

function clientAddress(forwarded: string | undefined, socket: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwarded) return forwarded.split(',')[0].trim();
  return socket ?? 'local';
}
