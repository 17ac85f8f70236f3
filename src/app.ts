// createApp(deps): the Hono app. Routes come from the generated table, each behind the guard its
// contract entry asks for; handlers come from the registry; every error leaves as problem+json.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { adminPaths, adminRoutes } from './admin/routes.ts';
import { adminSessionPaths, adminSessionRoutes } from './admin/session-routes.ts';
import type { Deps } from './deps.ts';
import { ApiError } from './errors.ts';
import { operations, routes } from './generated/routes.ts';
import type { HandlerContext } from './handlers/context.ts';
import { handlers } from './generated/registry.ts';
import { docsPaths, docsRoutes } from './http/docs.ts';
import { sandboxPaths, sandboxProviderRoutes } from './sandbox/google-provider.ts';
import { PAGE_STYLE_PATH, pageStyleRoutes } from './http/page-style.ts';
import { sandboxMetaPaths, sandboxMetaRoutes } from './sandbox/meta-provider.ts';
import { operationGuard } from './http/operation-guard.ts';
import { MCP_PATH, mcpRoutes } from './http/mcp-route.ts';
import { mountOperations, type BodyTexts } from './http/operation-handler.ts';
import { handleError, problemResponse } from './http/problem.ts';
import { requestContext, type AppEnv } from './http/request-context.ts';
import { unmatchedRequest } from './http/unmatched.ts';
import { validationHook } from './http/validation.ts';
import { TOOL_CALL_HEADER } from './mcp/tool-request.ts';

export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', requestContext({ log: deps.log, trustProxy: deps.config.trustProxy }));
  const tooLarge = () =>
    new ApiError('payload_too_large', `The request body exceeds ${deps.config.bodyLimitBytes} bytes.`);
  const limit = bodyLimit({
    maxSize: deps.config.bodyLimitBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  // Touching `c.req.raw.body` makes the node adapter build a web stream, which costs more than a whole
  // small request, so the stream is only counted when no trustworthy length is declared: Node's HTTP
  // parser reads exactly Content-Length bytes, so a declared length within the limit needs no counting.
  app.use('*', (c, next) => {
    const declared = c.req.header('content-length');
    if (c.req.header('transfer-encoding') !== undefined) return limit(c, next);
    if (declared !== undefined) {
      if (Number(declared) > deps.config.bodyLimitBytes) throw tooLarge();
      return next();
    }
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next);
  });
  const texts: BodyTexts = new WeakMap();
  const guardOptions = {
    authenticator: deps.auth.authenticator,
    limiter: deps.auth.limiter,
    rateLimit: deps.config.rateLimit,
    idempotency: { sql: deps.db.sql, clock: deps.clock, secret: deps.auth.apiKeyPepper },
  };
  mountOperations(app, {
    operations,
    routes,
    handlers,
    guards: (op) => operationGuard(op, guardOptions),
    context: (c): HandlerContext => ({
      deps,
      principal: c.get('principal'),
      account: c.get('account'),
      requestId: c.get('requestId'),
      clientAddress: c.get('clientAddress'),
      method: c.req.method,
      // Read when a handler asks: the node adapter makes a request's AbortController on first access (≈3 µs),
      // and most operations never wait long enough to need one.
      get signal() {
        return c.req.raw.signal;
      },
      viaTool: c.env?.carried !== undefined || c.req.header(TOOL_CALL_HEADER) !== undefined,
    }),
    texts,
  });
  mcpRoutes(app, deps, (response) => texts.get(response));
  adminRoutes(app);
  adminSessionRoutes(app, deps);
  pageStyleRoutes(app);
  // Sandbox mode's provider (Google's OAuth server and Gmail API, played by the service); live mode has none.
  if (deps.connectors.gmail.mode === 'sandbox') sandboxProviderRoutes(app, deps);
  // Likewise Facebook Login and the Marketing API for meta_ads connectors without a Meta app.
  if (deps.connectors.meta.mode === 'sandbox') sandboxMetaRoutes(app, deps);
  docsRoutes(app, deps.contract.openapiDocument);
  const unmatched = unmatchedRequest(operations, [
    ...docsPaths,
    { path: MCP_PATH, methods: ['POST', 'GET', 'DELETE'] },
    { path: PAGE_STYLE_PATH, methods: ['GET'] },
    ...adminPaths,
    ...adminSessionPaths,
    ...(deps.connectors.gmail.mode === 'sandbox' ? sandboxPaths : []),
    ...(deps.connectors.meta.mode === 'sandbox' ? sandboxMetaPaths : []),
  ]);
  app.notFound((c) =>
    problemResponse(unmatched(c.req.method, c.req.path), c.get('requestId') ?? 'unknown', c.req.path),
  );
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
